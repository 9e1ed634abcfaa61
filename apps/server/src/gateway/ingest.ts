import {
  deviceStatusSchema,
  deviceTopics,
  eventPayloadSchema,
  MAX_DEVICE_PAYLOAD_BYTES,
  parseDeviceTopic,
  parseTelemetryFast,
  PROTOCOL_VERSION,
  telemetrySchema,
  type DeviceStatus,
  type EventPayload,
  type Telemetry,
} from '@mowerline/contract';
import type { Counters } from './counters.ts';
import { parseBoundedJson } from './bounded-json.ts';
import type { IngestLimits } from './ingest-limits.ts';

export interface Received<T> {
  sn: string;
  receivedAt: Date;
  body: T;
  /** With DEVICE_ACK_AFTER_WRITE: acknowledges the message to the broker or device, called once it is written (or dropped for good). */
  ack?: () => void;
}

export interface Batch {
  telemetry: Received<Telemetry>[];
  statuses: Received<DeviceStatus>[];
  events: Received<EventPayload>[];
}

const schemas = {
  [deviceTopics.telemetry]: telemetrySchema,
  [deviceTopics.status]: deviceStatusSchema,
  [deviceTopics.events]: eventPayloadSchema,
} as const;

/** Built once: a fresh template string per message cost an allocation and a hash each. */
const counterNames = Object.fromEntries(Object.keys(schemas).map((kind) => [kind, { received: `received.${kind}`, accepted: `accepted.${kind}` }])) as Record<
  keyof typeof schemas,
  { received: string; accepted: string }
>;

export type WriteBatch = (batch: Batch) => Promise<void>;

const BATCH_CAP_FACTOR = 20;

interface IngestOptions {
  flushMs: number;
  batchMax: number;
  maxPending: number;
  maxAttempts: number;
  /** Independent writers; a device always goes to the same one (see Ingest). */
  writers: number;
  /**
   * Messages carry an `ack` that is called only once they are written (DEVICE_ACK_AFTER_WRITE).
   * A batch the database cannot take is then retried without limit instead of being dropped (the
   * unacknowledged messages hold the broker and the devices back, which bounds the buffer), and is
   * given up unacknowledged only on shutdown, so the broker or the device sends it again.
   */
  ackAfterWrite?: boolean;
  /** Per-device budgets: telemetry and new events over them are dropped (acknowledged, counted). */
  limits?: IngestLimits;
  /** Told how long each flush took (its transaction, splits and all): the metrics' batch histogram. */
  onBatch?: (seconds: number) => void;
  log: { warn(o: object, m: string): void; debug(o: object, m: string): void };
}

/**
 * Validates upstream messages and hands them to writer lanes. Each device belongs to one lane
 * (a hash of its SN), so its messages are written in order by one flush at a time, while lanes
 * write side by side on their own connections: one writer left the database idle between flushes
 * and kept a standing queue at 10,000 msg/s (bench/ingest.ts). Lanes never touch the same
 * device rows, so concurrent flushes cannot deadlock on them.
 */
export class Ingest {
  private readonly lanes: Lane[];

  constructor(
    write: WriteBatch,
    private readonly counters: Counters,
    private readonly opts: IngestOptions,
  ) {
    const perLane = { ...opts, maxPending: Math.ceil(opts.maxPending / opts.writers) };
    this.lanes = Array.from({ length: Math.max(1, opts.writers) }, () => new Lane(write, counters, perLane));
  }

  size(): number {
    return this.lanes.reduce((n, lane) => n + lane.size(), 0);
  }

  /**
   * One message from the broker. Never throws. `ack`, when given, is called once the message is
   * written, or at once when it is dropped here (invalid: sending it again would not help).
   */
  accept(topic: string, payload: Buffer, receivedAt = new Date(), ack?: () => void): void {
    const where = parseDeviceTopic(topic);
    const kind = where?.suffix as keyof typeof schemas | undefined;
    if (!where || !kind || !(kind in schemas)) return this.drop('topic', topic, ack);
    this.counters.inc(counterNames[kind].received);
    const limits = this.opts.limits;
    const now = limits ? receivedAt.getTime() : 0;
    // Before parsing: a device over its budget costs no JSON parse. Dropped on purpose, so
    // acknowledged: sending it again would not help, and the device must not stall.
    if (limits) {
      if (kind === deviceTopics.telemetry) {
        if (!limits.admitTelemetry(where.sn, now)) return ack?.();
      } else if (kind === deviceTopics.status) limits.observe(where.sn, now);
    }
    if (payload.length > MAX_DEVICE_PAYLOAD_BYTES) return this.drop('oversize', where.sn, ack);
    let json: unknown;
    try {
      json = parseBoundedJson(payload);
    } catch {
      return this.drop('json', where.sn, ack);
    }
    // Telemetry is nearly every message: checked by hand first (same verdict, parseTelemetryFast).
    let body: unknown = kind === deviceTopics.telemetry ? parseTelemetryFast(json) : undefined;
    if (body === undefined) {
      const parsed = schemas[kind].safeParse(json);
      if (!parsed.success) {
        const v = (json as { v?: unknown } | null)?.v;
        return this.drop(v !== undefined && v !== PROTOCOL_VERSION ? 'version' : 'schema', where.sn, ack);
      }
      body = parsed.data;
    }
    if (limits && kind === deviceTopics.events && !limits.admitEvent(where.sn, (body as EventPayload).code, now)) return ack?.();
    this.counters.inc(counterNames[kind].accepted);
    this.laneOf(where.sn).push(kind, { sn: where.sn, receivedAt, body, ack });
  }

  /** Writes everything buffered in every lane (one flush at a time per lane). */
  async flush(): Promise<void> {
    await Promise.all(this.lanes.map((lane) => lane.flush()));
  }

  /** Writes until every buffer is empty; terminates because a failing batch is dropped after maxAttempts (rows the database refuses are dropped at once). */
  async drain(): Promise<void> {
    await Promise.all(this.lanes.map((lane) => lane.drain()));
  }

  /** Final flush on shutdown. */
  async stop(): Promise<void> {
    await Promise.all(this.lanes.map((lane) => lane.stop()));
  }

  private laneOf(sn: string): Lane {
    if (this.lanes.length === 1) return this.lanes[0]!;
    // FNV-1a: cheap, and spreads sequential SNs evenly.
    let h = 0x811c9dc5;
    for (let i = 0; i < sn.length; i++) h = Math.imul(h ^ sn.charCodeAt(i), 0x01000193);
    return this.lanes[(h >>> 0) % this.lanes.length]!;
  }

  private drop(reason: string, sn: string, ack?: () => void) {
    this.counters.inc(`dropped.${reason}`);
    this.opts.log.debug({ sn, reason }, 'dropped a device message');
    ack?.();
  }
}

/**
 * One writer: buffers messages and flushes every `flushMs` or when `batchMax` messages wait.
 * A batch the database refuses because of some of its rows is split until only those rows are
 * left, and they are dropped and counted (writeSplitting). Any other failed write keeps the rows
 * and retries; after `maxAttempts` the batch is dropped and counted, so a database that refuses
 * everything cannot grow the buffer for ever.
 */
class Lane {
  private pending: Batch = { telemetry: [], statuses: [], events: [] };
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private failures = 0;
  private stopped = false;

  constructor(
    private readonly write: WriteBatch,
    private readonly counters: Counters,
    private readonly opts: IngestOptions,
  ) {}

  size(): number {
    return count(this.pending);
  }

  push(kind: keyof typeof schemas, item: Received<unknown>): void {
    if (kind === deviceTopics.telemetry) this.pending.telemetry.push(item as Received<Telemetry>);
    else if (kind === deviceTopics.status) this.pending.statuses.push(item as Received<DeviceStatus>);
    else this.pending.events.push(item as Received<EventPayload>);
    this.trim();
    if (this.size() >= this.opts.batchMax) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.opts.flushMs);
  }

  /** Writes everything buffered (one flush at a time); resolves when the buffer is empty or a write failed. */
  async flush(): Promise<void> {
    // Forget the timer first: a timer that fires during a flush must not stay behind as a stale
    // handle, or the `??=` in accept()/finally never schedules the next flush.
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.flushing) return this.flushing;
    if (this.size() === 0) return;
    // At most BATCH_CAP_FACTOR × batchMax telemetry per transaction: when ingest falls behind, one
    // huge transaction would hold the (PGlite: only) connection for many seconds and stall every
    // API read behind it. Not much less: each PGlite transaction has a high fixed cost, and at 4×
    // the embedded write rate halved (bench/ingest.ts). Presence and events are few and all go now
    // (presence first, as designed).
    const batch: Batch = { telemetry: this.pending.telemetry.splice(0, this.opts.batchMax * BATCH_CAP_FACTOR), statuses: this.pending.statuses, events: this.pending.events };
    this.pending = { telemetry: this.pending.telemetry, statuses: [], events: [] };
    const started = this.opts.onBatch ? performance.now() : 0;
    this.flushing = writeSplitting(this.write, batch, this.counters, this.opts.log)
      .then((left) => {
        this.opts.onBatch?.((performance.now() - started) / 1000);
        if (!left) {
          this.failures = 0;
          this.counters.inc('flushes');
          return;
        }
        const { rest, err } = left;
        this.counters.inc('flush.failures');
        this.failures++;
        if (this.opts.ackAfterWrite && this.stopped && this.failures >= this.opts.maxAttempts) {
          // Shutting down with the database away: not acknowledged, so the broker (this node's
          // session) or the device sends it again.
          const rows = count(rest) + this.size();
          this.opts.log.warn({ err, rows }, 'shutting down while the database refuses writes; messages left unacknowledged');
          this.counters.inc('unacknowledged.abandoned', rows);
          this.pending = { telemetry: [], statuses: [], events: [] };
          this.failures = 0;
        } else if (!this.opts.ackAfterWrite && this.failures >= this.opts.maxAttempts) {
          this.opts.log.warn({ err, rows: count(rest) }, 'dropping a batch the database refused repeatedly');
          this.counters.inc('dropped.writeFailed', count(rest));
          ackAll(rest);
          this.failures = 0;
        } else {
          this.opts.log.warn({ err, attempt: this.failures }, 'telemetry batch write failed; will retry');
          // Older rows first, so per-device order is kept.
          this.pending = {
            telemetry: [...rest.telemetry, ...this.pending.telemetry],
            statuses: [...rest.statuses, ...this.pending.statuses],
            events: [...rest.events, ...this.pending.events],
          };
          this.trim();
        }
      })
      .finally(() => {
        this.flushing = undefined;
        if (this.size() > 0 && !this.stopped) {
          const delay = this.failures > 0 ? Math.min(10_000, this.opts.flushMs * 2 ** this.failures) : this.size() >= this.opts.batchMax ? 0 : this.opts.flushMs;
          this.timer ??= setTimeout(() => void this.flush(), delay);
        }
      });
    return this.flushing;
  }

  /** Writes until the buffer is empty; terminates because a failing batch is dropped after maxAttempts. */
  async drain(): Promise<void> {
    while (this.flushing || this.size() > 0) await this.flush();
  }

  /** Final flush on shutdown. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.drain();
  }

  /**
   * Bounded memory (`maxPending`, 1 % over at most) while the database is away or behind: the
   * oldest telemetry goes first. Not with
   * acknowledge-after-write: there the unacknowledged messages stop the broker (its in-flight
   * window towards this node) and the devices (each waits for its PUBACK), which bounds the buffer.
   */
  private trim() {
    if (this.opts.ackAfterWrite) return;
    const excess = this.size() - this.opts.maxPending;
    // Dropping from the front of the array moves everything behind it: done for every message of
    // a full buffer, that was quadratic (76 % of the server's time, embedded at 10,000 mowers,
    // bench/ingest.ts) and cut the write rate to 1 % of the offered load. A slack of 1 % makes
    // one move drop a run of messages.
    if (excess > Math.floor(this.opts.maxPending / 100)) {
      const dropped = this.pending.telemetry.splice(0, excess);
      ackAll({ telemetry: dropped, statuses: [], events: [] });
      this.counters.inc('dropped.overflow', dropped.length);
    }
  }
}

/**
 * SQLSTATE classes that blame the rows, not the database: data exceptions (22: text PostgreSQL
 * cannot store, numbers out of range), integrity violations (23: an SN deleted while its messages
 * were in flight) and program limits (54: an index row too large). Anything else (a lost
 * connection, a shutdown, a serialization failure) is retried as it is.
 */
const ROW_ERROR_CLASSES = new Set(['22', '23', '54']);

/** Is this database error caused by the rows written (drizzle wraps the driver's error in `cause`)? */
export function isRowError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return ROW_ERROR_CLASSES.has(code.slice(0, 2));
  }
  return false;
}

/** The first and second half of a batch, in receive order per kind (presence, telemetry, events). */
export function splitBatch(batch: Batch): [Batch, Batch] {
  let take = Math.ceil(count(batch) / 2);
  const cut = <T>(items: T[]): [T[], T[]] => {
    const n = Math.min(take, items.length);
    take -= n;
    return [items.slice(0, n), items.slice(n)];
  };
  const [s1, s2] = cut(batch.statuses);
  const [t1, t2] = cut(batch.telemetry);
  const [e1, e2] = cut(batch.events);
  return [
    { statuses: s1, telemetry: t1, events: e1 },
    { statuses: s2, telemetry: t2, events: e2 },
  ];
}

/**
 * Writes a batch; when the database refuses it because of its rows, writes each half in turn
 * (bisecting down to single messages), so only the rows that cannot be written are dropped and
 * counted (`dropped.rejected.<kind>`), and one device's bad message never costs another device its
 * data. A failure that is not the rows' fault stops the split: what is not written yet comes back
 * as `rest`, in order, for the caller to retry.
 */
export async function writeSplitting(
  write: WriteBatch,
  batch: Batch,
  counters: Counters,
  log: { warn(o: object, m: string): void },
): Promise<{ rest: Batch; err: unknown } | undefined> {
  try {
    await write(batch);
  } catch (err) {
    if (!isRowError(err)) return { rest: batch, err };
    if (count(batch) === 1) {
      const [kind, item] = batch.statuses.length ? ['status', batch.statuses[0]!] : batch.telemetry.length ? ['telemetry', batch.telemetry[0]!] : ['events', batch.events[0]!];
      counters.inc(`dropped.rejected.${kind}`);
      log.warn({ err, sn: item.sn, kind }, 'dropped a device message the database refused');
      // Sent again it would be refused again: acknowledged as dropped.
      ackAll(batch);
      return undefined;
    }
    counters.inc('flush.split');
    const [first, second] = splitBatch(batch);
    const left = await writeSplitting(write, first, counters, log);
    if (left) return { rest: concat(left.rest, second), err: left.err };
    return writeSplitting(write, second, counters, log);
  }
  // Committed: now the broker or the device may forget these messages.
  ackAll(batch);
  return undefined;
}

/** Acknowledges a batch's messages in receive order (presence, telemetry and events interleaved). */
function ackAll(batch: Batch) {
  // Nearly every batch is telemetry alone, already in receive order: no copy, no sort.
  if (batch.statuses.length === 0 && batch.events.length === 0) {
    for (const m of batch.telemetry) m.ack?.();
    return;
  }
  const items: Array<Received<unknown>> = [...batch.statuses, ...batch.telemetry, ...batch.events].filter((m) => m.ack);
  if (items.length === 0) return;
  items.sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime());
  for (const m of items) m.ack!();
}

function concat(a: Batch, b: Batch): Batch {
  return { statuses: [...a.statuses, ...b.statuses], telemetry: [...a.telemetry, ...b.telemetry], events: [...a.events, ...b.events] };
}

export function count(batch: Batch): number {
  return batch.telemetry.length + batch.statuses.length + batch.events.length;
}
