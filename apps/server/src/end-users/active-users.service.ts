import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/**
 * App users who did anything today (UTC): a user-log row (sign-in, bind, share…) or a content
 * open. Both are read through their day indexes (`user_logs_at`, the views' unique key by day).
 */
export async function activeAppUsersToday(db: Db, now: Date = new Date()): Promise<{ day: string; count: number }> {
  const day = now.toISOString().slice(0, 10);
  const result = await db.execute(sql`
    select count(*)::int as n from (
      select user_id from user_logs where at >= ${day}::date and user_id is not null
      union
      select user_id from content_views where day = ${day}::date) active`);
  return { day, count: (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0 };
}
