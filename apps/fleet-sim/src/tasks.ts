import { randomBytes } from 'node:crypto';
import {
  clockMinutes,
  commandErrorCodes,
  deviceTopic,
  deviceTopics,
  encodePolyline,
  PROTOCOL_VERSION,
  scheduleConfigSchema,
  taskCommands,
  type CommandRequest,
  type CommandResponse,
  type RunReport,
  type RunResult,
  type RunTrigger,
  type ScheduleConfig,
} from '@mowerline/contract';
import type { Garden, Point } from './garden.ts';
import type { Mower, MowerExtension } from './mower.ts';

/** Simulated seconds per real second for tasks: a two-hour slot passes in two minutes. */
export const TASK_TIME_SCALE = 60;
/** m² a mower cuts per simulated hour. */
const MOW_RATE_M2_PER_H = 500;
/** Battery percent a simulated hour of mowing costs; a long run pauses to charge. */
const DRAIN_PER_H = 60;
const CHARGE_S = 45 * 60;
const FAULT_CHANCE_PER_RUN = 0.12;
const FAULTS = ['BLADE_BLOCKED', 'STUCK', 'LIFTED', 'WHEEL_MOTOR_OVERLOAD', 'OUTSIDE_WORKING_AREA', 'GNSS_FIX_LOST'];

interface Run {
  runId: string;
  seq: number;
  trigger: RunTrigger;
  scheduleId: number | null;
  zones: string[];
  planned: number;
  done: number;
  mowingS: number;
  startedAt: number;
  pausedUntilSim: number | null;
  endsAtSim: number | null;
  faultAtFraction: number | null;
  lastProgress: number;
}

/** A mower's garden as two zones: the front and the back half of the lawn. */
export function gardenZones(garden: Garden) {
  const half = garden.depth / 2;
  const rect = (y0: number, y1: number) =>
    [
      { x: 0, y: y0 },
      { x: garden.width, y: y0 },
      { x: garden.width, y: y1 },
      { x: 0, y: y1 },
    ].map((p) => {
      const { lat, lng } = garden.toLatLng(p);
      return { lat: Math.round(lat * 1e7) / 1e7, lng: Math.round(lng * 1e7) / 1e7 };
    });
  return [
    { id: 'front', name: 'Front lawn', polygon: rect(0, half), areaM2: Math.round(garden.width * half) },
    { id: 'back', name: 'Back lawn', polygon: rect(half, garden.depth), areaM2: Math.round(garden.width * half) },
  ];
}

function localSlot(simMs: number, timeZone: string): { weekday: number; minutes: number } {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(simMs));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(get('weekday')) + 1;
  return { weekday, minutes: Number(get('hour')) * 60 + Number(get('minute')) };
}

/**
 * Tasks on a simulated mower (docs/device-protocol.md, "Tasks"): reports its zones, applies and
 * acknowledges the schedule configuration, follows it on a clock running TASK_TIME_SCALE times
 * faster, reports runs (progress, pauses to charge, faults from the mower's own list, the path
 * along its stripes as an encoded polyline) and obeys task commands.
 */
export class TaskAgent implements MowerExtension {
  private config: ScheduleConfig | undefined;
  private run: Run | undefined;
  private simMs = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private lastSlotKey = '';
  private battery = 100;

  constructor(
    private readonly mower: Mower,
    private readonly garden: Garden,
    private readonly rng: () => number,
  ) {}

  handles(name: string): boolean {
    return name.startsWith('task.');
  }

  async onConnect(): Promise<void> {
    await this.mower.transport().subscribe(deviceTopic(this.mower.sn, deviceTopics.configSchedule));
    await this.mower.publish(deviceTopics.zones, { v: PROTOCOL_VERSION, ts: Date.now(), zones: gardenZones(this.garden) });
    this.timer ??= setInterval(() => this.tick(1), 1000);
    this.timer.unref?.();
  }

  onDisconnect(): void {
    // Runs go on while offline; reports are sent again once connected (QoS 1 from the next one).
  }

  handleMessage(topic: string, payload: Buffer): boolean {
    if (topic !== deviceTopic(this.mower.sn, deviceTopics.configSchedule)) return false;
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      return true;
    }
    const parsed = scheduleConfigSchema.safeParse(json);
    if (!parsed.success) return true;
    const applied = Math.max(this.config?.rev ?? 0, parsed.data.rev);
    if (!this.config || parsed.data.rev >= this.config.rev) this.config = parsed.data;
    this.mower.log(`schedule configuration revision ${parsed.data.rev} applied`);
    void this.mower.publish(deviceTopics.configAck, { v: PROTOCOL_VERSION, kind: 'schedule', rev: parsed.data.rev, ok: true, applied });
    return true;
  }

  async handleCommand(req: CommandRequest): Promise<CommandResponse> {
    const ok = (result: unknown): CommandResponse => ({ v: PROTOCOL_VERSION, id: req.id, ok: true, result });
    const busy = (message: string): CommandResponse => ({ v: PROTOCOL_VERSION, id: req.id, ok: false, error: { code: commandErrorCodes.busy, message } });
    switch (req.name) {
      case taskCommands.start: {
        if (this.run) return busy(`already running ${this.run.runId}`);
        const zones = Array.isArray(req.args.zones) ? (req.args.zones as string[]) : [];
        const trigger = req.args.trigger === 'console' ? 'console' : 'app';
        const minutes = typeof req.args.durationMin === 'number' ? req.args.durationMin : undefined;
        const run = this.startRun(trigger, null, zones, minutes ? this.simMs + minutes * 60_000 : null);
        return ok({ runId: run.runId });
      }
      case taskCommands.pause:
        if (!this.run) return busy('no run');
        this.pause('user', Number.MAX_SAFE_INTEGER);
        return ok({ ok: true });
      case taskCommands.resume:
        if (!this.run) return busy('no run');
        this.resume();
        return ok({ ok: true });
      case taskCommands.returnHome:
      case taskCommands.cancel:
        if (!this.run) return busy('no run');
        this.end('user_ended', null);
        return ok({ ok: true });
      default:
        return { v: PROTOCOL_VERSION, id: req.id, ok: false, error: { code: commandErrorCodes.unknownCommand, message: `no such command: ${req.name}` } };
    }
  }

  /** Advances the task clock by `realSeconds`. */
  tick(realSeconds: number): void {
    const dtS = realSeconds * TASK_TIME_SCALE;
    this.simMs += dtS * 1000;
    const run = this.run;
    if (!run) {
      this.battery = Math.min(100, this.battery + (dtS / CHARGE_S) * 80);
      this.maybeStartScheduled();
      return;
    }
    if (run.pausedUntilSim !== null) {
      this.battery = Math.min(100, this.battery + (dtS / CHARGE_S) * 80);
      if (this.simMs >= run.pausedUntilSim) this.resume();
      return;
    }
    run.mowingS += dtS;
    run.done = Math.min(run.planned, run.done + (MOW_RATE_M2_PER_H * dtS) / 3600);
    this.battery -= (DRAIN_PER_H * dtS) / 3600;
    const fraction = run.planned > 0 ? run.done / run.planned : 1;
    if (this.mower.telemetry().errorCode) return this.end('interrupted', this.mower.telemetry().errorCode);
    if (run.faultAtFraction !== null && fraction >= run.faultAtFraction) {
      const code = FAULTS[Math.floor(this.rng() * FAULTS.length)]!;
      this.mower.fault(code);
      return this.end('interrupted', code);
    }
    if (fraction >= 1) return this.end('completed', null);
    if (run.endsAtSim !== null && this.simMs >= run.endsAtSim) return this.end(run.trigger === 'schedule' ? 'interrupted' : 'user_ended', null);
    if (this.battery <= 20) return this.pause('charging', this.simMs + CHARGE_S * 1000);
    if (fraction * 100 - run.lastProgress >= 10) {
      run.lastProgress = Math.floor(fraction * 10) * 10;
      this.report({ type: 'progress', percent: Math.round(fraction * 1000) / 10, areaM2: Math.round(run.done * 10) / 10 });
    }
  }

  private maybeStartScheduled(): void {
    const config = this.config;
    if (!config) return;
    const now = localSlot(this.simMs, config.timeZone);
    for (const s of config.schedules) {
      if (!s.enabled) continue;
      for (const slot of s.slots) {
        if (slot.weekday !== now.weekday) continue;
        const start = clockMinutes(slot.start);
        const end = clockMinutes(slot.end);
        if (now.minutes < start || now.minutes >= end) continue;
        const key = `${s.id}:${Math.floor(this.simMs / 86_400_000)}:${slot.start}`;
        if (key === this.lastSlotKey) continue;
        this.lastSlotKey = key;
        this.startRun('schedule', s.id, s.zones, this.simMs + (end - now.minutes) * 60_000);
        return;
      }
    }
  }

  private startRun(trigger: RunTrigger, scheduleId: number | null, zones: string[], endsAtSim: number | null, resumes: string | null = null): Run {
    const all = gardenZones(this.garden);
    const planned = all.filter((z) => zones.length === 0 || zones.includes(z.id)).reduce((n, z) => n + z.areaM2, 0);
    const run: Run = {
      runId: `r${Date.now().toString(36)}${randomBytes(4).toString('hex')}`,
      seq: 0,
      trigger,
      scheduleId,
      zones,
      planned,
      done: 0,
      mowingS: 0,
      startedAt: Date.now(),
      pausedUntilSim: null,
      endsAtSim,
      faultAtFraction: this.rng() < FAULT_CHANCE_PER_RUN ? 0.2 + this.rng() * 0.6 : null,
      lastProgress: 0,
    };
    this.run = run;
    this.report({ type: 'started', trigger, scheduleId, zones, plannedAreaM2: planned, resumes });
    this.mower.log(`task run ${run.runId} started (${trigger})`);
    return run;
  }

  private pause(reason: 'charging' | 'user', untilSim: number): void {
    if (!this.run || this.run.pausedUntilSim !== null) return;
    this.run.pausedUntilSim = untilSim;
    this.report({ type: 'paused', reason, battery: Math.max(0, Math.round(this.battery)) });
  }

  private resume(): void {
    if (!this.run || this.run.pausedUntilSim === null) return;
    this.run.pausedUntilSim = null;
    this.report({ type: 'resumed' });
  }

  private end(result: RunResult, faultCode: string | null): void {
    const run = this.run;
    if (!run) return;
    const fraction = run.planned > 0 ? run.done / run.planned : 1;
    const path = this.path(run.zones, fraction);
    const distanceM = path.reduce((d, p, i) => (i === 0 ? 0 : d + Math.hypot(p.x - path[i - 1]!.x, p.y - path[i - 1]!.y)), 0);
    this.report({
      type: 'ended',
      result,
      faultCode,
      areaM2: Math.round(run.done * 10) / 10,
      durationS: Math.round(run.mowingS),
      bladeOnS: Math.round(run.mowingS * 0.92),
      distanceM: Math.round(distanceM * 10) / 10,
      path: encodePolyline(path.map((p) => {
        const { lat, lng } = this.garden.toLatLng(p);
        return [lat, lng] as [number, number];
      })),
      startedAt: run.startedAt,
    });
    this.mower.log(`task run ${run.runId} ended: ${result}${faultCode ? ` (${faultCode})` : ''}`);
    this.run = undefined;
  }

  /** The stripes driven: those of the run's zones, up to the fraction done, at most 400 points. */
  private path(zones: string[], fraction: number): Point[] {
    const half = this.garden.depth / 2;
    const inZone = (p: Point) => zones.length === 0 || (zones.includes('front') && p.y <= half) || (zones.includes('back') && p.y > half);
    const stripes = [this.garden.home, ...this.garden.stripes.filter(inZone)];
    const n = Math.max(2, Math.ceil(stripes.length * Math.max(0.02, Math.min(1, fraction))));
    return stripes.slice(0, Math.min(n, 400));
  }

  private report(body: Record<string, unknown>): void {
    const run = this.run;
    if (!run) return;
    run.seq++;
    const report = { v: PROTOCOL_VERSION, runId: run.runId, seq: run.seq, ts: Date.now(), ...body } as RunReport;
    void this.mower.publish(deviceTopics.runs, report).catch(() => {});
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

export function taskFeature(mower: Mower, garden: Garden, rng: () => number): MowerExtension {
  return new TaskAgent(mower, garden, rng);
}
