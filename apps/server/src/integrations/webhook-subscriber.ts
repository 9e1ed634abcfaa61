import { sql } from 'drizzle-orm';
import { eventTypeNames } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import type { Subscriber } from '../events/dispatcher.ts';

/**
 * The webhooks' consumer of the event stream: each event becomes one queued delivery per enabled
 * webhook that wants its type (or `*`). Idempotent on (webhook, event), so a redelivered event
 * queues nothing twice; the sender does the sending, so a slow receiver never holds the stream.
 */
export function webhookSubscriber(db: Db, opts: { now: () => Date; queued: () => void }): Subscriber {
  return {
    name: 'webhooks',
    types: eventTypeNames,
    async handle(event) {
      const body = JSON.stringify({ type: event.type, timestamp: event.createdAt, data: event.payload });
      const now = opts.now().toISOString();
      const result = await db.execute(sql`insert into webhook_deliveries (webhook_id, event_id, message_id, event_type, body, next_at, created_at)
        select w.id, ${event.id}::bigint, ${`msg_${event.id}`}, ${event.type}, ${body}, ${now}::timestamptz, ${now}::timestamptz
        from webhooks w where w.enabled and w.events && ${sql.param([event.type, '*'])}::text[]
        on conflict (webhook_id, event_id) do nothing returning id`);
      if ((result as unknown as { rows: unknown[] }).rows.length > 0) opts.queued();
    },
  };
}
