import { sql } from 'drizzle-orm';
import { eventTypeNames, eventTypes, type EventTypeName } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import type { Subscriber } from '../events/dispatcher.ts';
import { groupSetSql } from '../device-groups/group-targets.ts';

const WEBHOOKS = 'webhooks';

/** The types the enabled webhooks want: all of them when one wants `*`, none without webhooks. */
const wantedTypes = sql`(select case when bool_or('*' = any(events)) then ${sql.param([...eventTypeNames])}::text[]
    else coalesce(array(select distinct t from webhooks, unnest(events) t where enabled order by t), '{}') end
  from webhooks where enabled)`;

/**
 * Keeps the webhooks' subscription to what the enabled webhooks want, on every node at once (the
 * outbox reads it as it writes each event): called after a webhook is created, changed, removed or
 * switched off. An ingest event nobody's webhook wants costs no delivery row.
 */
export async function syncWebhookTypes(db: Pick<Db, 'execute'>): Promise<void> {
  await db.execute(sql`update event_subscribers set types = coalesce(${wantedTypes}, '{}'), updated_at = now() where name = ${WEBHOOKS}`);
}

/**
 * The webhooks' consumer of the event stream: each event becomes one queued delivery per enabled
 * webhook that wants its type (or `*`). Idempotent on (webhook, event), so a redelivered event
 * queues nothing twice; the sender does the sending, so a slow receiver never holds the stream.
 */
export function webhookSubscriber(db: Db, opts: { now: () => Date; queued: () => void }): Subscriber {
  return {
    name: WEBHOOKS,
    types: eventTypeNames,
    currentTypes: async () => {
      const result = await db.execute(sql`select ${wantedTypes} as types`);
      return (result as unknown as { rows: Array<{ types: EventTypeName[] }> }).rows[0]?.types ?? [];
    },
    async handle(event) {
      const candidates = (
        (await db.execute(sql`select id, group_ids from webhooks where enabled and events && ${sql.param([event.type, '*'])}::text[]`)) as unknown as {
          rows: Array<{ id: number; group_ids: number[] }>;
        }
      ).rows;
      // A device event goes only to the webhooks whose groups (if any) hold the mower now.
      const aboutDevice = eventTypes[event.type].subject === 'device';
      const ids: number[] = [];
      for (const w of candidates) if (!aboutDevice || w.group_ids.length === 0 || (await inGroups(db, event.subject, w.group_ids))) ids.push(w.id);
      if (ids.length === 0) return;
      const body = JSON.stringify({ type: event.type, timestamp: event.createdAt, data: event.payload });
      const now = opts.now().toISOString();
      const result = await db.execute(sql`insert into webhook_deliveries (webhook_id, event_id, message_id, event_type, body, next_at, created_at)
        select w.id, ${event.id}::bigint, ${`msg_${event.id}`}, ${event.type}, ${body}, ${now}::timestamptz, ${now}::timestamptz
        from webhooks w where w.id = any(${sql.param(ids)}::int[])
        on conflict (webhook_id, event_id) do nothing returning id`);
      if ((result as unknown as { rows: unknown[] }).rows.length > 0) opts.queued();
    },
  };
}

/** Whether the mower `sn` is in any of these groups now; a group deleted since matches nothing. */
async function inGroups(db: Db, sn: string, groupIds: readonly number[]): Promise<boolean> {
  const existing = (await db.execute(sql`select id from device_groups where id = any(${sql.param([...groupIds])}::int[])`)) as unknown as { rows: Array<{ id: number }> };
  const { include } = await groupSetSql(db, existing.rows.map((r) => r.id), []);
  if (!include) return false;
  const found = (await db.execute(sql`select 1 from (${include}) as m where m.sn = ${sn} limit 1`)) as unknown as { rows: unknown[] };
  return found.rows.length > 0;
}
