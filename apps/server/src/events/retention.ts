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
    if (n < chunk) break;
  }
  // The ids handled before the oldest event left: no delivery of theirs can come again.
  await db.execute(sql`delete from event_handled where event_id < coalesce((select min(id) from events), (select last_value + 1 from events_id_seq))`);
  return total;
}
