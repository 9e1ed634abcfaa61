import {
  deviceStatusSchema,
  deviceTopics,
  eventPayloadSchema,
  MAX_DEVICE_PAYLOAD_BYTES,
  parseDeviceTopic,
  PROTOCOL_VERSION,
  telemetrySchema,
  type DeviceStatus,
  type EventPayload,
  type Telemetry,
} from '@mowerline/contract';
import type { Counters } from './counters.ts';

export interface Received<T> {
  sn: string;
  receivedAt: Date;
  body: T;
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

export type WriteBatch = (batch: Batch) => Promise<void>;

/**
 * Validates upstream messages and buffers them; a writer flushes the buffer every `flushMs` or when
 * `batchMax` messages wait. Anything malformed is dropped and counted here and goes no further.
 * A failed write keeps the rows and retries; after `maxAttempts` the batch is dropped and counted
 * so one poisonous batch cannot stall the fleet.
 */
export class Ingest {
  private pending: Batch = { telemetry: [], statuses: [], events: [] };
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private failures = 0;
  private stopped = false;

  constructor(
    private readonly write: WriteBatch,
    private readonly counters: Counters,
    private readonly opts: { flushMs: number; batchMax: number; maxPending: number; maxAttempts: number; log: { warn(o: object, m: string): void; debug(o: object, m: string): void } },
  ) {}

  size(): number {
    return this.pending.telemetry.length + this.pending.statuses.length + this.pending.events.length;
  }

  /** One message from the broker. Never throws. */
  accept(topic: string, payload: Buffer, receivedAt = new Date()): void {
    const where = parseDeviceTopic(topic);
    const kind = where?.suffix as keyof typeof schemas | undefined;
    if (!where || !kind || !(kind in schemas)) return this.drop('topic', topic);
    this.counters.inc(`received.${kind}`);
    if (payload.length > MAX_DEVICE_PAYLOAD_BYTES) return this.drop('oversize', where.sn);
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      return this.drop('json', where.sn);
    }
    const parsed = schemas[kind].safeParse(json);
    if (!parsed.success) {
      const v = (json as { v?: unknown } | null)?.v;
      return this.drop(v !== undefined && v !== PROTOCOL_VERSION ? 'version' : 'schema', where.sn);
    }
    const item = { sn: where.sn, receivedAt, body: parsed.data };
    if (kind === deviceTopics.telemetry) this.pending.telemetry.push(item as Received<Telemetry>);
    else if (kind === deviceTopics.status) this.pending.statuses.push(item as Received<DeviceStatus>);
    else this.pending.events.push(item as Received<EventPayload>);
    this.counters.inc(`accepted.${kind}`);
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
    const batch = this.pending;
    this.pending = { telemetry: [], statuses: [], events: [] };
    this.flushing = this.write(batch)
      .then(() => {
        this.failures = 0;
        this.counters.inc('flushes');
      })
      .catch((err: unknown) => {
        this.counters.inc('flush.failures');
        this.failures++;
        if (this.failures >= this.opts.maxAttempts) {
          this.opts.log.warn({ err, rows: count(batch) }, 'dropping a batch the database refused repeatedly');
          this.counters.inc('dropped.writeFailed', count(batch));
          this.failures = 0;
        } else {
          this.opts.log.warn({ err, attempt: this.failures }, 'telemetry batch write failed; will retry');
          // Older rows first, so per-device order is kept.
          this.pending = {
            telemetry: [...batch.telemetry, ...this.pending.telemetry],
            statuses: [...batch.statuses, ...this.pending.statuses],
            events: [...batch.events, ...this.pending.events],
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

  private drop(reason: string, sn: string) {
    this.counters.inc(`dropped.${reason}`);
    this.opts.log.debug({ sn, reason }, 'dropped a device message');
  }

  /** Bounded memory while the database is away: the oldest telemetry goes first. */
  private trim() {
    const excess = this.size() - this.opts.maxPending;
    if (excess > 0) {
      this.pending.telemetry.splice(0, excess);
      this.counters.inc('dropped.overflow', excess);
    }
  }
}

function count(batch: Batch): number {
  return batch.telemetry.length + batch.statuses.length + batch.events.length;
}
