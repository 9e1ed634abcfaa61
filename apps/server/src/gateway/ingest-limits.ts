import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { Counters } from './counters.ts';

export interface Limits {
  /** Telemetry messages per second, sustained. */
  telemetryRate: number;
  /** Telemetry messages at once above the rate (the bucket's size). */
  telemetryBurst: number;
  /** New active exception events per hour (the bucket's size too: an hour's worth at once). */
  eventsPerHour: number;
}

/** A model's own limits: null takes the default. */
export type LimitOverrides = { [K in keyof Limits]: number | null };

const HOUR_MS = 3_600_000;
/** A device is "far above" its limits when it offers more than this many times its telemetry rate. */
export const ABUSE_FACTOR = 10;
/** The offered rate is judged per slot of this length. */
const SLOT_MS = 1000;
/** A model's limits are read again this often, so an admin's change reaches every node. */
const LIMITS_REFRESH_MS = 60_000;
/** Per-device drop counts are added to the database this often (only devices that were limited). */
const DROPS_FLUSH_MS = 5000;
/** A device silent this long is forgotten: its buckets are full again by then and its event codes expired. */
const IDLE_MS = HOUR_MS;
const LOOKUP_BATCH = 5000;

interface Budget {
  limits: Limits;
  /** When `limits` were read from the model (0: never; the defaults apply until then). */
  limitsAt: number;
  tokens: number;
  refilledAt: number;
  eventTokens: number;
  eventsRefilledAt: number;
  /** Event codes admitted within the hour: more of the same code fold into that open event and cost nothing. */
  codes: Map<string, number> | undefined;
  slotStart: number;
  slotCount: number;
  /** Start of the run of consecutive slots above ABUSE_FACTOR × the rate (-1: not above). */
  overSince: number;
  droppedTelemetry: number;
  droppedEvents: number;
  lastAt: number;
}

export interface IngestLimitsOptions {
  defaults: Limits;
  /** How long a device must stay above ABUSE_FACTOR × its limits before `onAbuse`. */
  abuseWindowMs: number;
  /** Called once per run above the limits that lasted `abuseWindowMs` (the run then starts again). */
  onAbuse(sn: string, observed: { rate: number; limit: number }): void;
  log: { warn(o: object, m: string): void };
}

/**
 * Per-device token buckets for telemetry and for new exception events, in this node's memory, and
 * the watch for devices that stay far above them. With an external broker's shared subscription,
 * one device's messages may be spread over the nodes, so each node grants its own budget: a device
 * gets at most (nodes × budget), and the embedded broker (one node) grants exactly the budget.
 *
 * The cost for a device within its limits is one map lookup and a few additions per message: no
 * allocation, no timer, no database access on the message path.
 */
export class IngestLimits {
  private readonly budgets = new Map<string, Budget>();
  /** SNs whose model limits are to be read. */
  private readonly toLoad = new Set<string>();
  private loading = false;
  /** SNs with drops not yet added to the database. */
  private readonly dirty = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private ticks = 0;

  constructor(
    private readonly db: Db,
    private readonly counters: Counters,
    private readonly opts: IngestLimitsOptions,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      void this.flushDrops();
      if (++this.ticks % 120 === 0) this.forgetIdle(Date.now());
    }, DROPS_FLUSH_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flushDrops();
  }

  /** May this telemetry message be written? Counts the drop (node counter, device count) when not. */
  admitTelemetry(sn: string, now: number): boolean {
    const b = this.budget(sn, now);
    const { telemetryRate, telemetryBurst } = b.limits;
    b.tokens = Math.min(telemetryBurst, b.tokens + ((now - b.refilledAt) * telemetryRate) / 1000);
    b.refilledAt = now;
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return true;
    }
    b.droppedTelemetry++;
    this.dirty.add(sn);
    this.counters.inc('dropped.limited.telemetry');
    return false;
  }

  /**
   * May this event be written? A code admitted within the hour is free (it folds into the open
   * event); a new code takes a token, so at most `eventsPerHour` new active events an hour. A code
   * cleared by staff within the hour may open again for free: bounded by what staff clear.
   */
  admitEvent(sn: string, code: string, now: number): boolean {
    const b = this.budget(sn, now);
    const admitted = b.codes?.get(code);
    if (admitted !== undefined && now - admitted < HOUR_MS) return true;
    const { eventsPerHour } = b.limits;
    b.eventTokens = Math.min(eventsPerHour, b.eventTokens + ((now - b.eventsRefilledAt) * eventsPerHour) / HOUR_MS);
    b.eventsRefilledAt = now;
    if (b.eventTokens >= 1) {
      b.eventTokens -= 1;
      b.codes ??= new Map();
      // Bounded: only admitted codes are kept, at most about two hours' budget.
      for (const [c, at] of b.codes) if (now - at >= HOUR_MS) b.codes.delete(c);
      b.codes.set(code, now);
      return true;
    }
    b.droppedEvents++;
    this.dirty.add(sn);
    this.counters.inc('dropped.limited.events');
    return false;
  }

  /** A message that is not limited (presence) still counts toward the offered rate. */
  observe(sn: string, now: number): void {
    this.budget(sn, now);
  }

  /** The model's limits of these devices, known before their first message (the embedded broker's connect). */
  prime(sn: string, overrides: LimitOverrides, now = Date.now()): void {
    this.apply(this.budget(sn, now, false), overrides, now);
  }

  /** A model's limits changed: every device reads its model's limits again with its next message. */
  reload(): void {
    for (const b of this.budgets.values()) b.limitsAt = 0;
  }

  /** Drops of this device on this node not yet in the database (the detail adds them). */
  pendingDrops(sn: string): { telemetry: number; events: number } {
    const b = this.budgets.get(sn);
    return { telemetry: b?.droppedTelemetry ?? 0, events: b?.droppedEvents ?? 0 };
  }

  /** This device's state is forgotten (staff cleared its flag: a fresh start, still limited). */
  forget(sn: string): void {
    if (!this.dirty.has(sn)) this.budgets.delete(sn);
    else {
      const b = this.budgets.get(sn);
      if (b) b.overSince = -1;
    }
  }

  /** Finds or starts the device's budget, and counts the message toward the offered rate (unless priming it). */
  private budget(sn: string, now: number, offered = true): Budget {
    let b = this.budgets.get(sn);
    if (!b) {
      const d = this.opts.defaults;
      b = {
        limits: d,
        limitsAt: 0,
        tokens: d.telemetryBurst,
        refilledAt: now,
        eventTokens: d.eventsPerHour,
        eventsRefilledAt: now,
        codes: undefined,
        slotStart: now,
        slotCount: 0,
        overSince: -1,
        droppedTelemetry: 0,
        droppedEvents: 0,
        lastAt: now,
      };
      this.budgets.set(sn, b);
    }
    if (!offered) return b;
    if (now - b.limitsAt >= LIMITS_REFRESH_MS) {
      // Marked as read now, so the lookup is asked once; its answer replaces the limits.
      b.limitsAt = now;
      this.load(sn);
    }
    b.lastAt = now;
    if (now - b.slotStart >= SLOT_MS) this.closeSlot(sn, b, now);
    b.slotCount++;
    return b;
  }

  /**
   * Judges the slot that ended: above ABUSE_FACTOR × the telemetry rate extends the run, anything
   * else (or a silent slot in between) ends it. A run as long as the window calls `onAbuse`.
   */
  private closeSlot(sn: string, b: Budget, now: number) {
    const limit = ABUSE_FACTOR * b.limits.telemetryRate * (SLOT_MS / 1000);
    const contiguous = now - b.slotStart < 2 * SLOT_MS;
    if (b.slotCount > limit && contiguous) {
      if (b.overSince < 0) b.overSince = b.slotStart;
      const slotEnd = b.slotStart + SLOT_MS;
      if (slotEnd - b.overSince >= this.opts.abuseWindowMs) {
        b.overSince = -1;
        this.counters.inc('devices.flagged');
        this.opts.onAbuse(sn, { rate: b.slotCount / (SLOT_MS / 1000), limit: b.limits.telemetryRate });
      }
    } else b.overSince = -1;
    b.slotStart = now;
    b.slotCount = 0;
  }

  private apply(b: Budget, o: LimitOverrides, now: number) {
    const d = this.opts.defaults;
    b.limits = { telemetryRate: o.telemetryRate ?? d.telemetryRate, telemetryBurst: o.telemetryBurst ?? d.telemetryBurst, eventsPerHour: o.eventsPerHour ?? d.eventsPerHour };
    b.limitsAt = now;
    // A smaller bucket holds no more than it can.
    b.tokens = Math.min(b.tokens, b.limits.telemetryBurst);
    b.eventTokens = Math.min(b.eventTokens, b.limits.eventsPerHour);
  }

  /** Model limits are read in batches: one `sn = any(…)` query for every SN asked meanwhile. */
  private load(sn: string) {
    this.toLoad.add(sn);
    if (!this.loading) void this.runLoads();
  }

  private async runLoads() {
    this.loading = true;
    while (this.toLoad.size > 0) {
      const sns = [...this.toLoad].slice(0, LOOKUP_BATCH);
      for (const sn of sns) this.toLoad.delete(sn);
      try {
        const result = await this.db.execute(sql`select d.sn, m.telemetry_rate, m.telemetry_burst, m.events_per_hour
          from devices d join product_models m on m.id = d.model_id where d.sn = any(${sql.param(sns)}::text[])`);
        const rows = (result as unknown as { rows: Array<{ sn: string; telemetry_rate: number | null; telemetry_burst: number | null; events_per_hour: number | null }> }).rows;
        const now = Date.now();
        for (const r of rows) {
          const b = this.budgets.get(r.sn);
          if (b) this.apply(b, { telemetryRate: r.telemetry_rate === null ? null : Number(r.telemetry_rate), telemetryBurst: r.telemetry_burst, eventsPerHour: r.events_per_hour }, now);
        }
      } catch (err) {
        // The defaults stay; the next refresh asks again.
        this.opts.log.warn({ err }, 'could not read the ingest limits of device models');
      }
    }
    this.loading = false;
  }

  /** Adds this node's drops to each device's total, in SN order so nodes never deadlock on the rows. */
  async flushDrops(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (this.dirty.size === 0) return;
    const sns = [...this.dirty].sort();
    this.dirty.clear();
    const telemetry = sns.map((sn) => this.budgets.get(sn)?.droppedTelemetry ?? 0);
    const events = sns.map((sn) => this.budgets.get(sn)?.droppedEvents ?? 0);
    for (const sn of sns) {
      const b = this.budgets.get(sn);
      if (b) b.droppedTelemetry = b.droppedEvents = 0;
    }
    const p = sql.param;
    this.flushing = this.db
      .execute(
        sql`insert into device_ingest_drops (sn, telemetry, events, updated_at)
          select u.sn, u.telemetry, u.events, now() from unnest(${p(sns)}::text[], ${p(telemetry)}::bigint[], ${p(events)}::bigint[]) as u(sn, telemetry, events)
          join devices d on d.sn = u.sn order by u.sn
          on conflict (sn) do update set telemetry = device_ingest_drops.telemetry + excluded.telemetry,
            events = device_ingest_drops.events + excluded.events, updated_at = excluded.updated_at`,
      )
      .then(
        () => undefined,
        (err: unknown) => {
          // Kept for the next flush.
          this.opts.log.warn({ err }, 'could not write the per-device ingest drops');
          sns.forEach((sn, i) => {
            const b = this.budgets.get(sn);
            if (!b) return;
            b.droppedTelemetry += telemetry[i]!;
            b.droppedEvents += events[i]!;
            this.dirty.add(sn);
          });
        },
      )
      .finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private forgetIdle(now: number) {
    for (const [sn, b] of this.budgets) if (now - b.lastAt >= IDLE_MS && !this.dirty.has(sn)) this.budgets.delete(sn);
  }
}
