import { sql, type SQLWrapper } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import { bound, preparedByShape, presentValues } from '../db/prepared.ts';
import type { Db } from '../db/client.ts';

/** Up to this many matches a list reports an exact total. */
export const EXACT_COUNT_LIMIT = 10_000;
/** Totals up to this are counted on every page: cheap, and a list that changes by one row shows it at once. */
export const ALWAYS_COUNTED = 1_000;
/** A larger total is kept this long per filter: paging through a big list re-counts nothing. */
export const COUNT_CACHE_MS = 10_000;
const CACHE_ENTRIES = 500;

type Matches = SQLWrapper & { limit(n: number): SQLWrapper; toSQL(): { sql: string; params: unknown[] } };
interface Total {
  total: number;
  exact: boolean;
}

/** Per database (tests run several servers in one process), keyed by the list's shape and values, or its SQL and parameters. */
const caches = new WeakMap<Db, Map<string, Total & { until: number }>>();

/**
 * A list's filter as a count needs it: `matches` writes `select … from … where …` taking each value
 * from `value` (a slot of a prepared query, or a bound parameter); `shape` names the SQL it writes
 * for any values (as in db/prepared.ts).
 */
export interface FilteredList<V extends Record<string, unknown>> {
  shape: string;
  values: V;
  matches: (value: (name: keyof V) => SQLWrapper) => PgSelect;
}

/**
 * The total of a list without counting a million rows per page: count at most 10,001 matches
 * (an index range, cheap); beyond that, the planner's row estimate for the same query, which
 * PostgreSQL keeps current through ANALYZE. A total above ALWAYS_COUNTED is cached briefly per
 * filter, so the next pages of the same list skip both the capped count and the estimate.
 *
 * Given a `FilteredList`, the cache key is its shape and values, and the capped count is built once
 * per shape: no SQL is built for a cached total, nor for the count of a short list (counted on
 * every page). Given a function building a fresh `select … from … where …`, its SQL and parameters
 * are the key.
 */
export async function countMatches<V extends Record<string, unknown>>(db: Db, list: FilteredList<V> | (() => Matches)): Promise<Total> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const filtered = typeof list === 'function' ? undefined : list;
  const matches = filtered ? () => filtered.matches(bound(filtered.values)) : (list as () => Matches);
  const key = filtered ? `${filtered.shape}\u0000${JSON.stringify(presentValues(filtered.values))}` : sqlKey(matches());
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && hit.until > now) return { total: hit.total, exact: hit.exact };
  if (hit) cache.delete(key);
  const capped = filtered
    ? preparedByShape(db, `count:${filtered.shape}`, (slot) =>
        db.select({ n: sql<number>`count(*)::int` }).from(filtered.matches((name) => slot(String(name))).limit(EXACT_COUNT_LIMIT + 1).as('capped')),
      ).execute(filtered.values)
    : db.execute(sql`select count(*)::int as n from (${matches().limit(EXACT_COUNT_LIMIT + 1)}) capped`).then((r) => (r as unknown as { rows: Array<{ n: number }> }).rows);
  const total = await estimateBeyondCap(db, Number((await capped)[0]?.n ?? 0), matches);
  if (total.total > ALWAYS_COUNTED) {
    // Oldest first out: a Map iterates in insertion order.
    if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(key, { ...total, until: now + COUNT_CACHE_MS });
  }
  return total;
}

function sqlKey(query: Matches): string {
  const { sql: text, params } = query.toSQL();
  return `${text}\u0000${JSON.stringify(params)}`;
}

async function estimateBeyondCap(db: Db, n: number, matches: () => SQLWrapper): Promise<Total> {
  if (n <= EXACT_COUNT_LIMIT) return { total: n, exact: true };
  const plan = await db.execute(sql`explain (format json) ${matches()}`);
  return { total: Math.max(EXACT_COUNT_LIMIT + 1, Math.round(planRows(plan))), exact: false };
}

function planRows(result: unknown): number {
  const rows = (result as { rows: Array<Record<string, unknown>> }).rows;
  const raw = rows[0]?.['QUERY PLAN'];
  const doc = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan: { 'Plan Rows': number } }>;
  return doc[0]?.Plan['Plan Rows'] ?? 0;
}
