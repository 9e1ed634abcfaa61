import { sql } from 'drizzle-orm';
import type { ContentDataPoint, ContentType, Locale, PopularItem } from '@mowerline/contract';
import { POPULAR_SIZE } from '@mowerline/contract';
import type { Db } from '../db/client.ts';

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** Today's UTC date, `YYYY-MM-DD`: views are counted per UTC day. */
export const utcDay = (at: Date = new Date()) => at.toISOString().slice(0, 10);

/**
 * Percent change of `current` against `previous`, one decimal. With no opens in the previous
 * period a percentage means nothing (any growth from zero is infinite): the answer is null and the
 * console shows the item as new.
 */
export function increase(current: number, previous: number): number | null {
  if (previous === 0) return null;
  return Math.round(((current - previous) / previous) * 1000) / 10;
}

/**
 * The top items of a type by opens in the last `days` UTC days (today included), each with the
 * change against the `days` days before. Reads the daily roll-up only.
 */
export async function popularContent(db: Db, q: { type: ContentType; days: number }, locale: Locale, now: Date = new Date()): Promise<PopularItem[]> {
  const today = utcDay(now);
  const rows = rowsOf<{ id: number; title_zh: string; title_en: string; cur: number; prev: number }>(
    await db.execute(sql`
      with d as (
        select content_id,
               coalesce(sum(opens) filter (where day > ${today}::date - ${q.days}::int), 0)::int as cur,
               coalesce(sum(opens) filter (where day <= ${today}::date - ${q.days}::int), 0)::int as prev
        from content_daily
        where day > ${today}::date - ${q.days * 2}::int and day <= ${today}::date
        group by content_id)
      select c.id, c.title_zh, c.title_en, d.cur, d.prev
      from d join content_items c on c.id = d.content_id
      where c.type = ${q.type} and d.cur > 0
      order by d.cur desc, c.id desc
      limit ${POPULAR_SIZE}`),
  );
  return rows.map((r) => ({ key: r.id, clickNumber: r.cur, title: locale === 'zh-CN' ? r.title_zh : r.title_en, increases: increase(r.cur, r.prev) }));
}

/** Opens per UTC day over the last `days` days (today included); a day without opens is 0. */
export async function contentData(db: Db, days: number, now: Date = new Date()): Promise<ContentDataPoint[]> {
  const today = utcDay(now);
  const rows = rowsOf<{ x: string; y: number }>(
    await db.execute(sql`
      select to_char(g.day, 'YYYY-MM-DD') as x, coalesce(sum(cd.opens), 0)::int as y
      from generate_series(${today}::date - ${days - 1}::int, ${today}::date, interval '1 day') as g(day)
      left join content_daily cd on cd.day = g.day::date
      group by g.day order by g.day`),
  );
  return rows;
}
