import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import {
  builtinCommands,
  commandErrorCodes,
  commandRequestSchema,
  deviceTopic,
  deviceTopics,
  PROTOCOL_VERSION,
  type CommandRequest,
  type CommandResponse,
  type Telemetry,
} from '@mowerline/contract';
import type { Garden } from './garden.ts';
import { MowerSim, type SimEvent } from './mower-sim.ts';
import type { Rng } from './rng.ts';
import { MowerSettings, type MowerView } from './shell/mower-view.ts';

/**
 * A device feature plugged into a mower's command router (remote shell, OTA): it answers the
 * commands it `handles`, may claim messages on its own topics and hears about (re)connects.
 */
export interface MowerExtension {
  handles(name: string): boolean;
  handleCommand(req: CommandRequest): Promise<CommandResponse>;
  /** True when the message was for this extension. */
  handleMessage?(topic: string, payload: Buffer): boolean;
  onConnect?(): Promise<void>;
  /** The connection is going away (reboot, stop, power cut). */
  onDisconnect?(reason: string): void;
  /** For `ota status` in the shell. */
  otaStatus?(): { state: string; version: string | null; progress: number | null };
}

export interface MowerOptions {
  sn: string;
  secret: string;
  mqttUrl: string;
  model: string;
  modelName: string;
  firmware: string;
  garden: Garden;
  rng: Rng;
  /** Simulated seconds per real second (5 = five times faster than a real mower). */
  timeScale?: number;
  faultsPerHour?: number;
  rainPerHour?: number;
  keepaliveS?: number;
  /** First reconnect delay; doubles per failed attempt up to `backoffMaxMs`, with jitter. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Telemetry period; overrides the shell setting `telemetry.interval_s` (benchmarks send faster than its 5 s floor). */
  telemetryIntervalMs?: number;
}

const LOG_LINES = 200;

/**
 * A simulated mower as a real MQTT client speaking the device protocol: presence with a last
 * will, telemetry, exception events, the command channel (ping, reboot and extensions), and
 * reconnects with exponential back-off and jitter. The fleet's ticker drives `tick`.
 */
export class Mower implements MowerView {
  readonly sim: MowerSim;
  readonly settings: MowerSettings;
  private client: MqttClient | undefined;
  private conn = '';
  private current: string;
  private attempts = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private stopped = true;
  private bootedAt = Date.now();
  /** Time left until the next periodic report, counted down by `tick`. */
  private untilTelemetryMs = 0;
  private readonly extensions: MowerExtension[] = [];
  private readonly logLines: string[] = [];
  /** Connects that ended in CONNACK refusals (wrong secret, disabled SN). */
  refusals = 0;
  /** Successful connects, reconnects included. */
  connects = 0;
  /** Telemetry messages handed to the broker (benchmarks compare it with what arrived). */
  telemetrySent = 0;

  constructor(private readonly opts: MowerOptions) {
    this.current = opts.firmware;
    this.settings = new MowerSettings((key, value) => this.log(`config: ${key} = ${String(value)}`));
    this.sim = new MowerSim(opts.garden, opts.rng, {
      faultsPerHour: opts.faultsPerHour ?? 0.5,
      rainPerHour: opts.rainPerHour ?? 0.1,
      returnPercent: () => Number(this.settings.get('battery.return_percent') ?? 20),
    });
  }

  get sn(): string {
    return this.opts.sn;
  }

  get model(): string {
    return this.opts.modelName;
  }

  firmware(): string {
    return this.current;
  }

  online(): boolean {
    return this.client?.connected ?? false;
  }

  use(extension: MowerExtension): void {
    this.extensions.push(extension);
  }

  // ------------------------------------------------------------------ connection

  /** Starts connecting (and keeps reconnecting until `stop`). */
  start(): void {
    this.stopped = false;
    this.connect();
  }

  /** Clean disconnect: `offline` first (a clean DISCONNECT does not fire the will). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    await this.disconnect('stopped');
  }

  /** The connection drops without a DISCONNECT (power cut, network loss): the broker fires the will. */
  dropConnection(reconnectAfterMs = 1000): void {
    const client = this.client;
    this.client = undefined;
    this.notifyDisconnect('connection lost');
    client?.end(true);
    if (!this.stopped) this.scheduleReconnect(reconnectAfterMs);
  }

  private connect() {
    clearTimeout(this.reconnectTimer);
    this.conn = randomBytes(8).toString('base64url');
    const status = deviceTopic(this.sn, deviceTopics.status);
    const client = mqtt.connect(this.opts.mqttUrl, {
      clientId: this.sn,
      username: this.sn,
      password: this.opts.secret,
      clean: true,
      keepalive: this.opts.keepaliveS ?? 30,
      reconnectPeriod: 0,
      connectTimeout: 10_000,
      will: { topic: status, payload: Buffer.from(JSON.stringify({ v: PROTOCOL_VERSION, online: false, conn: this.conn })), qos: 1, retain: true },
    });
    this.client = client;
    let refused = false;
    client.on('connect', () => {
      this.attempts = 0;
      this.connects++;
      this.log(`connected to ${this.opts.mqttUrl}`);
      void this.announce(client).catch(() => {});
    });
    client.on('message', (topic, payload) => void this.onMessage(topic, payload));
    client.on('error', (err: Error & { code?: number }) => {
      if (err.code === 4 || err.code === 5) {
        refused = true;
        this.refusals++;
        this.log(`connection refused (${err.code === 5 ? 'not authorised' : 'bad credentials'})`);
      }
    });
    client.on('close', () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.notifyDisconnect('connection closed');
      client.end(true);
      if (!this.stopped) this.scheduleReconnect(refused ? Math.max(30_000, this.backoff()) : this.backoff());
    });
  }

  private backoff(): number {
    const base = this.opts.backoffBaseMs ?? 1000;
    const max = this.opts.backoffMaxMs ?? 30_000;
    const delay = Math.min(max, base * 2 ** this.attempts++);
    return Math.round(delay * (0.5 + this.opts.rng()));
  }

  private scheduleReconnect(delayMs: number) {
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => {
      if (!this.stopped) this.connect();
    }, delayMs);
  }

  private async announce(client: MqttClient) {
    await client.subscribeAsync(deviceTopic(this.sn, deviceTopics.cmdReq), { qos: 1 });
    await client.publishAsync(
      deviceTopic(this.sn, deviceTopics.status),
      JSON.stringify({ v: PROTOCOL_VERSION, online: true, conn: this.conn, ts: Date.now(), firmware: this.current }),
      { qos: 1, retain: true },
    );
    this.publishTelemetry();
    for (const ext of this.extensions) await ext.onConnect?.();
  }

  private async disconnect(reason: string) {
    // Extensions hear it while the connection still works (open shell sessions say goodbye).
    this.notifyDisconnect(reason);
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    if (client.connected) {
      await client
        .publishAsync(deviceTopic(this.sn, deviceTopics.status), JSON.stringify({ v: PROTOCOL_VERSION, online: false, conn: this.conn }), { qos: 1, retain: true })
        .catch(() => {});
    }
    await client.endAsync().catch(() => {});
  }

  private notifyDisconnect(reason: string) {
    for (const ext of this.extensions) ext.onDisconnect?.(reason);
  }

  // ------------------------------------------------------------------ publishing

  /** Publishes on one of the mower's own upstream topics; false while offline. */
  async publish(suffix: string, payload: object): Promise<boolean> {
    const client = this.client;
    if (!client?.connected) return false;
    await client.publishAsync(deviceTopic(this.sn, suffix), JSON.stringify(payload), { qos: 1 });
    return true;
  }

  /** The raw connection for extensions that own topics of their own (shell sessions). */
  transport() {
    return {
      publish: (topic: string, payload: string) => {
        this.client?.publish(topic, payload, { qos: 1 }, () => {});
      },
      subscribe: async (topic: string) => {
        await this.client?.subscribeAsync(topic, { qos: 1 });
      },
      unsubscribe: async (topic: string) => {
        await this.client?.unsubscribeAsync(topic);
      },
    };
  }

  telemetry(): ReturnType<MowerView['telemetry']> & { firmware: string } {
    const s = this.sim;
    const where = s.garden.toLatLng(s.position);
    return {
      state: s.state,
      activity: s.activity,
      battery: Math.round(Math.max(0, Math.min(100, s.battery))),
      charging: s.charging,
      position: { lat: round(where.lat, 7), lng: round(where.lng, 7), heading: s.heading },
      bladeRpm: s.bladeRpm,
      rssi: s.rssi,
      errorCode: s.errorCode,
      firmware: this.current,
    };
  }

  private publishTelemetry() {
    const t = this.telemetry();
    const payload: Telemetry = {
      v: PROTOCOL_VERSION,
      ts: Date.now(),
      state: t.state as Telemetry['state'],
      activity: t.activity as Telemetry['activity'],
      errorCode: t.errorCode,
      battery: t.battery,
      position: t.position,
      bladeRpm: t.bladeRpm,
      rssi: t.rssi,
      firmware: t.firmware,
    };
    this.untilTelemetryMs = this.telemetryIntervalMs();
    void this.publish(deviceTopics.telemetry, payload).then(
      (sent) => {
        if (sent) this.telemetrySent++;
      },
      () => {},
    );
  }

  private publishEvent(e: SimEvent) {
    this.log(`${e.severity} ${e.code}: ${e.message}`);
    const payload = { v: PROTOCOL_VERSION, id: randomBytes(9).toString('base64url'), ts: Date.now(), ...e };
    void this.publish(deviceTopics.events, payload).catch(() => {});
  }

  /**
   * Advances the simulation by `realSeconds` (times the time scale) and publishes what is due:
   * telemetry on its interval or at once when the state changes, events as they happen.
   */
  tick(realSeconds: number): void {
    const before = this.sim.state;
    const events = this.sim.tick(realSeconds * (this.opts.timeScale ?? 1));
    for (const e of events) this.publishEvent(e);
    if (this.sim.state !== before) this.log(`state ${before} → ${this.sim.state}`);
    this.untilTelemetryMs -= realSeconds * 1000;
    if (this.sim.state !== before) this.publishTelemetry();
    else if (this.untilTelemetryMs <= 0) {
      // A late tick shortens the next period (by at most one period), so a ticker as coarse as the
      // period still averages exactly one report per period.
      const late = Math.min(-this.untilTelemetryMs, this.telemetryIntervalMs());
      this.publishTelemetry();
      this.untilTelemetryMs -= late;
    }
  }

  private telemetryIntervalMs(): number {
    return this.opts.telemetryIntervalMs ?? Number(this.settings.get('telemetry.interval_s') ?? 5) * 1000;
  }

  /** Injects a fault now (demo and tests). */
  fault(code?: string): void {
    this.publishEvent(this.sim.fault(code));
    this.publishTelemetry();
  }

  // ------------------------------------------------------------------ commands

  private async onMessage(topic: string, payload: Buffer) {
    for (const ext of this.extensions) if (ext.handleMessage?.(topic, payload)) return;
    if (topic !== deviceTopic(this.sn, deviceTopics.cmdReq)) return;
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      return;
    }
    const parsed = commandRequestSchema.safeParse(json);
    // An expired request is dropped: the platform has given up on it already.
    if (!parsed.success || parsed.data.deadline < Date.now()) return;
    const response = await this.handle(parsed.data).catch(
      (err: unknown): CommandResponse => ({ v: PROTOCOL_VERSION, id: parsed.data.id, ok: false, error: { code: commandErrorCodes.failed, message: String(err).slice(0, 200) } }),
    );
    await this.publish(deviceTopics.cmdRes, response).catch(() => {});
  }

  private async handle(req: CommandRequest): Promise<CommandResponse> {
    const ext = this.extensions.find((e) => e.handles(req.name));
    if (ext) return ext.handleCommand(req);
    const ok = (result: unknown): CommandResponse => ({ v: PROTOCOL_VERSION, id: req.id, ok: true, result });
    switch (req.name) {
      case builtinCommands.ping:
        return ok({ pong: true, uptimeS: this.uptimeS(), firmware: this.current });
      case builtinCommands.reboot: {
        const delay = Number(req.args.delayMs ?? 500);
        if (!Number.isInteger(delay) || delay < 0 || delay > 60_000) {
          return { v: PROTOCOL_VERSION, id: req.id, ok: false, error: { code: commandErrorCodes.badArgs, message: 'delayMs must be an integer 0–60000' } };
        }
        this.reboot(delay);
        return ok({ rebooting: true });
      }
      default:
        return { v: PROTOCOL_VERSION, id: req.id, ok: false, error: { code: commandErrorCodes.unknownCommand, message: `no such command: ${req.name}` } };
    }
  }

  // ------------------------------------------------------------------ device life

  uptimeS(): number {
    return Math.floor((Date.now() - this.bootedAt) / 1000);
  }

  logs(): readonly string[] {
    return this.logLines;
  }

  log(line: string): void {
    this.logLines.push(`${new Date().toISOString()} ${line}`);
    if (this.logLines.length > LOG_LINES) this.logLines.splice(0, this.logLines.length - LOG_LINES);
  }

  /** Restarts after `delayMs`: offline, a moment dark, then a new connection (and optionally new firmware). */
  reboot(delayMs: number, newFirmware?: string): Promise<void> {
    return new Promise((resolve) => {
      setTimeout(() => {
        this.log('rebooting');
        void this.disconnect('reboot').then(() => {
          if (newFirmware) this.current = newFirmware;
          this.bootedAt = Date.now();
          this.sim.rebooted();
          setTimeout(() => {
            if (!this.stopped) this.connect();
            resolve();
          }, 1000);
        });
      }, delayMs);
    });
  }

  ota(): { state: string; version: string | null; progress: number | null } {
    for (const ext of this.extensions) {
      const status = ext.otaStatus?.();
      if (status) return status;
    }
    return { state: 'idle', version: null, progress: null };
  }
}

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
