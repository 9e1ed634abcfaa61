import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { signedHeaders } from './webhook-signing.ts';
import { postWebhook, type PostResult } from './webhook-http.ts';
import { checkWebhookUrl, type Resolver, type UrlRules } from './webhook-url.ts';
import { outboxInsert } from '../events/emit.ts';
import type { WebhookDeliveryOutcome } from '../metrics/metrics.ts';
import { syncWebhookTypes } from './webhook-subscriber.ts';

/** Waits after the 1st, 2nd, … failed attempt; after the last one the delivery has failed (about 31 h in all). */
export const RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000];
/** A webhook whose deliveries have all failed for this long is switched off. */
export const DISABLE_AFTER_MS = 3 * 86_400_000;
/** A 2xx within this is a success. */
export const DELIVERY_TIMEOUT_MS = 15_000;

export interface SenderOptions extends UrlRules {
  nodeId: string;
  now: () => Date;
  /** How long a claimed delivery is this node's: past it (a node that died), another node sends it. */
  leaseMs: number;
  pollMs: number;
  resolve?: Resolver;
  log: { warn(o: object, m: string): void };
  /** Counts each attempt's outcome (the metrics' `mowerline_webhook_deliveries_total`). */
  count?: (outcome: WebhookDeliveryOutcome) => void;
}

interface Claimed {
  id: string | number;
  webhook_id: number;
  message_id: string;
  body: string;
  attempts: number;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: string | Date | null;
}

export type DeliveryOutcome = { ok: true; result: PostResult } | { ok: false; result: PostResult };

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * Sends due webhook deliveries from the database queue. Any node may run one: a round claims due
 * rows under FOR UPDATE SKIP LOCKED with a lease, so each is sent by one node, and what is due
 * survives restarts because it is only rows. The clock is injected (retry times, the disable rule).
 */
export class WebhookSender {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(
    private readonly db: Db,
    private readonly opts: SenderOptions,
  ) {}

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.opts.pollMs);
    this.timer.unref();
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
    await this.db
      .execute(sql`update webhook_deliveries set locked_until = null, locked_by = null where locked_by = ${this.opts.nodeId} and status = 'pending'`)
      .catch((err: unknown) => this.opts.log.warn({ err }, 'could not release claimed webhook deliveries'));
  }

  /** Something may be due (a new delivery, a retry, the poll). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err: unknown) => this.opts.log.warn({ err }, 'webhook delivery round failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again && !this.stopped) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async drain(): Promise<void> {
    while (!this.stopped) {
      const claimed = await this.claim();
      if (claimed.length === 0) return;
      await Promise.all(claimed.map((row) => this.send(row)));
    }
  }

  private async claim(): Promise<Claimed[]> {
    const now = this.opts.now();
    const until = new Date(now.getTime() + this.opts.leaseMs);
    const result = await this.db.execute(sql`
      with due as (
        select d.id from webhook_deliveries d join webhooks w on w.id = d.webhook_id
        where d.status = 'pending' and d.next_at <= ${at(now)} and (d.locked_until is null or d.locked_until < ${at(now)})
          and (w.enabled or d.event_id is null)
        order by d.next_at, d.id
        limit 10
        for update of d skip locked
      ), claimed as (
        update webhook_deliveries d set locked_until = ${at(until)}, locked_by = ${this.opts.nodeId}
        from due where d.id = due.id
        returning d.id, d.webhook_id, d.message_id, d.body, d.attempts
      )
      select c.*, w.url, w.secret, w.previous_secret, w.previous_secret_until
      from claimed c join webhooks w on w.id = c.webhook_id order by c.id`);
    return rowsOf<Claimed>(result);
  }

  /** One attempt: the URL is checked again (its name may resolve elsewhere now), signed, sent, recorded. */
  private async send(row: Claimed): Promise<void> {
    const now = this.opts.now();
    const secrets = [row.secret];
    if (row.previous_secret && row.previous_secret_until && new Date(row.previous_secret_until) > now) secrets.push(row.previous_secret);
    const headers = signedHeaders(secrets, row.message_id, now, row.body);
    const target = await checkWebhookUrl(row.url, this.opts, this.opts.resolve);
    let result: PostResult;
    if ('refused' in target) result = { excerpt: '', durationMs: 0, error: `refused: ${target.refused}` };
    else result = await postWebhook(target, headers, row.body, DELIVERY_TIMEOUT_MS);
    const ok = result.status !== undefined && result.status >= 200 && result.status < 300;
    if (!ok && !result.error) result.error = `HTTP ${result.status}`;
    await this.recordDeliveryOutcome(row, headers, ok ? { ok: true, result } : { ok: false, result });
  }

  /**
   * The one place a delivery attempt's outcome is recorded (and counted, when metrics count it):
   * the log row, the next retry or the final failure, and the webhook's failure streak, which
   * switches it off once it has lasted DISABLE_AFTER_MS.
   */
  async recordDeliveryOutcome(row: Pick<Claimed, 'id' | 'webhook_id' | 'attempts'>, headers: Record<string, string>, outcome: DeliveryOutcome): Promise<void> {
    const now = this.opts.now();
    const attempts = row.attempts + 1;
    const { result } = outcome;
    this.opts.count?.(outcomeLabel(outcome.ok, result));
    const wait = RETRY_SCHEDULE_MS[attempts - 1];
    const status = outcome.ok ? 'succeeded' : wait === undefined ? 'failed' : 'pending';
    const nextAt = status === 'pending' ? new Date(now.getTime() + wait!) : null;
    await this.db.execute(sql`update webhook_deliveries set status = ${status}, attempts = ${attempts},
        next_at = ${nextAt ? at(nextAt) : null}, locked_until = null, locked_by = null,
        response_status = ${result.status ?? null}, duration_ms = ${result.durationMs}, response_excerpt = ${result.excerpt},
        error = ${result.error}, request_headers = ${JSON.stringify(headers)}::jsonb, last_attempt_at = ${at(now)}
      where id = ${String(row.id)}`);
    if (outcome.ok) {
      await this.db.execute(sql`update webhooks set failing_since = null where id = ${row.webhook_id} and failing_since is not null`);
      return;
    }
    const [streak] = rowsOf<{ failing_since: string | Date }>(
      await this.db.execute(sql`update webhooks set failing_since = coalesce(failing_since, ${at(now)}) where id = ${row.webhook_id} returning failing_since`),
    );
    if (!streak || now.getTime() - new Date(streak.failing_since).getTime() < DISABLE_AFTER_MS) return;
    // Only the statement that switches it off writes the event (the bell tells the admins).
    await this.db.execute(
      outboxInsert(
        sql`select 'webhook.disabled' as type, 1 as version, 'webhook:' || id as subject,
          jsonb_build_object('webhookId', id, 'url', url, 'failingSince', ${new Date(streak.failing_since).toISOString()}::text, 'at', ${now.toISOString()}::text) as payload, 1 as ord
          from off`,
        sql`off as (update webhooks set enabled = false, disabled_reason = 'failing' where id = ${row.webhook_id} and enabled returning id, url)`,
      ),
    );
    await syncWebhookTypes(this.db);
  }
}

/** The bounded label of an attempt: an answer (2xx or not), no answer in time, refused by the URL rules, or a network error. */
function outcomeLabel(ok: boolean, result: PostResult): WebhookDeliveryOutcome {
  if (ok) return 'success';
  if (result.status !== undefined) return 'http_error';
  if (result.error.startsWith('refused:')) return 'refused';
  return result.error.startsWith('no answer within') ? 'timeout' : 'network_error';
}
