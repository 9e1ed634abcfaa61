import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/**
 * Deletes the events older than the retention that every subscriber has handled, oldest first, in
 * chunks so no statement holds locks for long. An event still pending for someone is kept.
 */
export async function trimEvents(db: Db, retentionDays: number, chunk = 5_000): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db.execute(sql`
      with doomed as (
        select e.id from events e
        where e.created_at < now() - make_interval(days => ${retentionDays})
          and not exists (select 1 from event_deliveries d where d.event_id = e.id)
        order by e.created_at
        limit ${chunk}
      )
      delete from events e using doomed where e.id = doomed.id`);
    const r = result as { rowCount?: number | null; affectedRows?: number };
    const n = r.rowCount ?? r.affectedRows ?? 0;
    total += n;
    if (n < chunk) return total;
  }
}
