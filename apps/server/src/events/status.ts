import { sql } from 'drizzle-orm';
import type { EventSubscriberStatus } from '@mowerline/contract';
import type { Db } from '../db/client.ts';

interface Row {
  name: string;
  types: string[] | string;
  delivered: string | number;
  pending: string | number;
  failing: string | number;
  oldest: string | Date | null;
  last_error: string | null;
  last_error_at: string | Date | null;
}

const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());

/** Per subscriber: what is still pending, since when, and what keeps failing (the admin's view). */
export async function subscriberStatus(db: Db): Promise<EventSubscriberStatus[]> {
  const result = await db.execute(sql`
    select s.name, s.types, s.delivered, coalesce(p.pending, 0) as pending, coalesce(p.failing, 0) as failing, p.oldest, p.last_error, p.last_error_at
    from event_subscribers s
    left join lateral (
      select count(*) as pending, count(*) filter (where d.last_error is not null) as failing, min(e.created_at) as oldest,
        (array_agg(d.last_error order by d.last_error_at desc) filter (where d.last_error is not null))[1] as last_error,
        max(d.last_error_at) as last_error_at
      from event_deliveries d join events e on e.id = d.event_id
      where d.subscriber = s.name
    ) p on true
    order by s.name`);
  const now = Date.now();
  return (result as unknown as { rows: Row[] }).rows.map((r) => {
    const oldest = iso(r.oldest);
    return {
      name: r.name,
      types: Array.isArray(r.types) ? r.types : String(r.types).replace(/^\{|\}$/g, '').split(',').filter(Boolean),
      pending: Number(r.pending),
      failing: Number(r.failing),
      oldestPendingAt: oldest,
      lagSeconds: oldest === null ? 0 : Math.max(0, Math.round((now - Date.parse(oldest)) / 1000)),
      lastError: r.last_error,
      lastErrorAt: iso(r.last_error_at),
      delivered: Number(r.delivered),
    };
  });
}
