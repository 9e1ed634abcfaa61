import { configAckSchema, deviceStatusSchema, deviceTopics, parseDeviceTopic, runReportSchema, TOPIC_ROOT, zonesReportSchema } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import type { Gateway } from '../gateway/gateway.ts';
import { applyRunReport, applyZones } from './ingest.service.ts';
import { applyAck, sendConfig, unsyncedOnline } from './schedules.service.ts';
import { parseBoundedJson } from '../gateway/bounded-json.ts';

type Log = { info(o: object, m: string): void; warn(o: object, m: string): void; debug(o: object, m: string): void };

/** How long a sent configuration may stay unacknowledged before it is sent again. */
const RESEND_AFTER_MS = 60_000;
const SWEEP_MS = 30_000;

/**
 * The device side of tasks: consumes `runs`, `zones` and `config/ack`, and keeps schedules in sync
 * (sent after each change, when a mower comes online, after a restart, and again when an ack does
 * not come). Messages of one mower are applied one after another, in receive order.
 */
export class TaskEngine {
  private readonly unlisten: Array<() => Promise<void>> = [];
  private readonly chains = new Map<string, Promise<void>>();
  private readonly cameOnline = new Set<string>();
  private onlineTimer: NodeJS.Timeout | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  readonly counters = { runs: 0, duplicates: 0, zones: 0, acks: 0, dropped: 0, sent: 0 };

  constructor(private readonly deps: { db: Db; gateway: Gateway; log: Log; flushMs: number }) {}

  async start(): Promise<void> {
    const { gateway } = this.deps;
    this.stopped = false;
    this.unlisten.push(await gateway.listen(`${TOPIC_ROOT}/+/${deviceTopics.runs}`, (topic, payload) => this.onMessage('runs', topic, payload)));
    this.unlisten.push(await gateway.listen(`${TOPIC_ROOT}/+/${deviceTopics.zones}`, (topic, payload) => this.onMessage('zones', topic, payload)));
    this.unlisten.push(await gateway.listen(`${TOPIC_ROOT}/+/${deviceTopics.configAck}`, (topic, payload) => this.onMessage('ack', topic, payload)));
    this.unlisten.push(await gateway.listen(`${TOPIC_ROOT}/+/${deviceTopics.status}`, (topic, payload) => this.onStatus(topic, payload)));
    // After a restart: every online mower whose configuration is not applied gets it again.
    this.sweepTimer = setTimeout(() => void this.sweep(true), 1000);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.onlineTimer);
    clearTimeout(this.sweepTimer);
    for (const undo of this.unlisten.splice(0)) await undo().catch(() => {});
    await Promise.all([...this.chains.values()]);
  }

  /** Sends a mower its configuration now (after a change, or a staff re-send). */
  async send(sn: string): Promise<boolean> {
    const sent = await sendConfig(this.deps.db, this.deps.gateway, sn).catch(() => false);
    if (sent) this.counters.sent++;
    return sent;
  }

  /** Resolves once every message received so far is applied (tests). */
  async idle(): Promise<void> {
    await this.deps.gateway.flush();
    while (this.chains.size > 0) await Promise.all([...this.chains.values()]);
  }

  private onMessage(kind: 'runs' | 'zones' | 'ack', topic: string, payload: Buffer): void {
    const where = parseDeviceTopic(topic);
    if (!where) return;
    const receivedAt = new Date();
    let json: unknown;
    try {
      json = parseBoundedJson(payload);
    } catch {
      this.counters.dropped++;
      return;
    }
    this.enqueue(where.sn, async () => {
      const { db } = this.deps;
      if (kind === 'runs') {
        const parsed = runReportSchema.safeParse(json);
        if (!parsed.success) return void this.counters.dropped++;
        const outcome = await applyRunReport(db, where.sn, parsed.data, receivedAt);
        if (outcome === 'duplicate') this.counters.duplicates++;
        else this.counters.runs++;
      } else if (kind === 'zones') {
        const parsed = zonesReportSchema.safeParse(json);
        if (!parsed.success) return void this.counters.dropped++;
        await applyZones(db, where.sn, parsed.data, receivedAt);
        this.counters.zones++;
      } else {
        const parsed = configAckSchema.safeParse(json);
        if (!parsed.success) return void this.counters.dropped++;
        await applyAck(db, where.sn, parsed.data);
        this.counters.acks++;
      }
    });
  }

  private enqueue(sn: string, work: () => Promise<void>): void {
    const previous = this.chains.get(sn) ?? Promise.resolve();
    const next = previous
      .then(work)
      .catch((err: unknown) => this.deps.log.warn({ err, sn }, 'could not apply a task message'))
      .finally(() => {
        if (this.chains.get(sn) === next) this.chains.delete(sn);
      });
    this.chains.set(sn, next);
  }

  private onStatus(topic: string, payload: Buffer): void {
    const where = parseDeviceTopic(topic);
    if (!where || this.stopped) return;
    try {
      if (!deviceStatusSchema.safeParse(parseBoundedJson(payload)).data?.online) return;
    } catch {
      return;
    }
    this.cameOnline.add(where.sn);
    // After the ingest wrote the presence (device_state.online), so the query below sees it.
    this.onlineTimer ??= setTimeout(() => void this.resendOnline(), this.deps.flushMs + 250);
  }

  private async resendOnline(): Promise<void> {
    this.onlineTimer = undefined;
    const sns = [...this.cameOnline];
    this.cameOnline.clear();
    try {
      await this.deps.gateway.flush();
      for (let i = 0; i < sns.length; i += 500) {
        for (const sn of await unsyncedOnline(this.deps.db, sns.slice(i, i + 500), 0)) await this.send(sn);
      }
    } catch (err) {
      this.deps.log.warn({ err }, 'could not re-send schedules to mowers that came online');
    }
  }

  /** Re-sends what stayed unacknowledged; at start, everything not applied. */
  private async sweep(all = false): Promise<void> {
    if (this.stopped) return;
    try {
      for (const sn of await unsyncedOnline(this.deps.db, undefined, all ? 0 : RESEND_AFTER_MS)) await this.send(sn);
    } catch (err) {
      this.deps.log.debug({ err }, 'schedule re-send sweep failed');
    }
    if (!this.stopped) this.sweepTimer = setTimeout(() => void this.sweep(), SWEEP_MS);
  }
}
