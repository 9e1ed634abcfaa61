import { sql } from 'drizzle-orm';
import type { DomainEvent, EventTypeName } from '@mowerline/contract';
import type { Db } from '../db/client.ts';

/** A consumer of the event stream: a feature module names it with the types it wants. */
export interface Subscriber {
  /** Stable across restarts and nodes: the pending deliveries are kept under it. */
  name: string;
  types: readonly EventTypeName[];
  /**
   * Handles one event. Delivery is at least once: a repeat carries the same `event.id`. A throw
   * retries this event later with backoff; later events of the same subject wait for it.
   */
  handle(event: DomainEvent): Promise<void>;
  /**
   * The HTTP request that caused an event answers after this subscriber handled it (bounded, see
   * request-events.ts): for effects the caller reads right after, such as the bell's notices.
   */
  beforeAnswer?: boolean;
  /**
   * The types it wants now, when that follows data (the enabled webhooks' choices): registered at
   * start instead of `types`, and kept current by the feature as the data changes, so no delivery
   * is written for an event nobody wants.
   */
  currentTypes?(): Promise<readonly EventTypeName[]>;
}

export interface DispatcherOptions {
  nodeId: string;
  /** How long a claimed delivery is this node's; past it, another node may take it over. */
  leaseMs: number;
  /** Fallback polling: LISTEN/NOTIFY wakes the dispatcher as soon as deliveries commit. */
  pollMs: number;
  /** The first retry of a failing delivery; each next one doubles, up to `retryMaxMs`. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Deliveries claimed per round trip (at most one per subject, to keep each subject's order). */
  claimBatch: number;
  log: { warn(o: object, m: string): void };
}

interface Claimed {
  event_id: string | number;
  attempts: number;
  type: string;
  version: number;
  subject: string;
  payload: Record<string, unknown> | string;
  created_at: string | Date;
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * Delivers the outbox to this node's subscribers. Each subscriber runs its own loop, so one that
 * throws or is slow never holds the others back. A round claims pending deliveries whose subject
 * has no earlier pending one (the order per subject), under FOR UPDATE SKIP LOCKED and a lease:
 * with several nodes, one node at a time handles each (subscriber, event).
 */
export class Dispatcher {
  private readonly loops = new Map<string, { running?: Promise<void>; again: boolean; timer?: NodeJS.Timeout }>();
  private stopped = true;
  private poller: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly subscribers: readonly Subscriber[],
    private readonly opts: DispatcherOptions,
  ) {
    const names = new Set<string>();
    for (const s of subscribers) {
      if (names.has(s.name)) throw new Error(`two event subscribers are named ${s.name}`);
      names.add(s.name);
    }
  }

  /** Registers the subscribers' types (new events get deliveries for them from now on) and starts delivering. */
  async start(): Promise<void> {
    for (const s of this.subscribers) {
      const types = s.currentTypes ? await s.currentTypes() : s.types;
      await this.db.execute(sql`insert into event_subscribers (name, types) values (${s.name}, ${sql.param([...types])}::text[])
        on conflict (name) do update set types = excluded.types, updated_at = now()`);
    }
    this.stopped = false;
    for (const s of this.subscribers) this.loops.set(s.name, { again: false });
    this.poller = setInterval(() => this.wake(), this.opts.pollMs);
    this.poller.unref();
    this.wake();
  }

  /** Something new may be pending (a notification, a poll, a retry coming due). */
  wake(): void {
    if (this.stopped) return;
    for (const s of this.subscribers) this.kick(s);
  }

  /**
   * Stops claiming, lets the handlers in flight finish, and hands back what this node claimed but
   * did not handle, so another node takes it at once instead of after the lease.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.poller);
    for (const loop of this.loops.values()) clearTimeout(loop.timer);
    await Promise.all([...this.loops.values()].map((l) => l.running));
    await this.db
      .execute(sql`update event_deliveries set locked_until = null, locked_by = null where locked_by = ${this.opts.nodeId}`)
      .catch((err: unknown) => this.opts.log.warn({ err }, 'could not release claimed event deliveries'));
  }

  /**
   * Waits until the `beforeAnswer` subscribers handled the events `ids`, here or on another node,
   * at most `timeoutMs`. Answers whether they did.
   */
  async settle(ids: readonly string[], timeoutMs: number): Promise<boolean> {
    const waiting = this.subscribers.filter((s) => s.beforeAnswer);
    if (waiting.length === 0 || ids.length === 0) return true;
    const names = sql.param(waiting.map((s) => s.name));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.stopped) return false;
      this.wake();
      await Promise.all(waiting.map((s) => this.loops.get(s.name)?.running));
      const left = await this.db.execute(sql`select 1 from event_deliveries where subscriber = any(${names}::text[]) and event_id = any(${sql.param([...ids])}::bigint[]) limit 1`);
      if (rowsOf(left).length === 0) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  private kick(s: Subscriber): void {
    const loop = this.loops.get(s.name);
    if (!loop) return;
    if (loop.running) {
      loop.again = true;
      return;
    }
    loop.running = this.drain(s)
      .catch((err: unknown) => this.opts.log.warn({ err, subscriber: s.name }, 'event delivery round failed'))
      .finally(() => {
        loop.running = undefined;
        if (loop.again && !this.stopped) {
          loop.again = false;
          this.kick(s);
        }
      });
  }

  /** Rounds until nothing claimable is left for this subscriber. */
  private async drain(s: Subscriber): Promise<void> {
    while (!this.stopped) {
      const claimed = await this.claim(s.name);
      if (claimed.length === 0) return;
      const done: Array<string | number> = [];
      for (const row of claimed) {
        if (this.stopped) break;
        try {
          await s.handle(toEvent(row));
          done.push(row.event_id);
        } catch (err) {
          await this.fail(s.name, row, err);
        }
      }
      if (done.length > 0) await this.ack(s.name, done);
    }
  }

  private async claim(subscriber: string): Promise<Claimed[]> {
    const { nodeId, leaseMs, claimBatch } = this.opts;
    const result = await this.db.execute(sql`
      with candidates as (
        select d.subscriber, d.event_id from event_deliveries d
        where d.subscriber = ${subscriber} and d.next_at <= now() and (d.locked_until is null or d.locked_until < now())
          and not exists (select 1 from event_deliveries p where p.subscriber = d.subscriber and p.subject = d.subject and p.event_id < d.event_id)
        order by d.event_id
        limit ${claimBatch}
        for update of d skip locked
      ), claimed as (
        update event_deliveries d set locked_until = now() + make_interval(secs => ${leaseMs / 1000}), locked_by = ${nodeId}
        from candidates c where d.subscriber = c.subscriber and d.event_id = c.event_id
        returning d.event_id, d.attempts
      )
      select c.event_id, c.attempts, e.type, e.version, e.subject, e.payload, e.created_at
      from claimed c join events e on e.id = c.event_id order by c.event_id`);
    return rowsOf<Claimed>(result);
  }

  private async ack(subscriber: string, ids: Array<string | number>): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.execute(sql`delete from event_deliveries where subscriber = ${subscriber} and event_id = any(${sql.param(ids.map(String))}::bigint[])`);
      await tx.execute(sql`update event_subscribers set delivered = delivered + ${ids.length} where name = ${subscriber}`);
    });
  }

  private async fail(subscriber: string, row: Claimed, err: unknown): Promise<void> {
    const attempts = row.attempts + 1;
    const delayMs = Math.min(this.opts.retryBaseMs * 2 ** (attempts - 1), this.opts.retryMaxMs);
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
    this.opts.log.warn({ err, subscriber, eventId: String(row.event_id), attempts }, 'event subscriber failed; retrying later');
    await this.db.execute(sql`update event_deliveries set attempts = ${attempts}, next_at = now() + make_interval(secs => ${delayMs / 1000}),
        locked_until = null, locked_by = null, last_error = ${message}, last_error_at = now()
      where subscriber = ${subscriber} and event_id = ${String(row.event_id)}`);
    const loop = this.loops.get(subscriber);
    if (loop && !this.stopped) {
      clearTimeout(loop.timer);
      loop.timer = setTimeout(() => this.wake(), delayMs + 10);
      loop.timer.unref();
    }
  }
}

function toEvent(row: Claimed): DomainEvent {
  return {
    id: String(row.event_id),
    type: row.type as EventTypeName,
    version: Number(row.version),
    subject: row.subject,
    payload: (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as DomainEvent['payload'],
    createdAt: new Date(row.created_at).toISOString(),
  };
}
