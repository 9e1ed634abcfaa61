import { sql, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/** Up to this many matches a list reports an exact total. */
export const EXACT_COUNT_LIMIT = 10_000;

type Matches = SQLWrapper & { limit(n: number): SQLWrapper };

/**
 * The total of a list without counting a million rows per page: count at most 10,001 matches
 * (an index range, cheap); beyond that, the planner's row estimate for the same query, which
 * PostgreSQL keeps current through ANALYZE. `matches` builds a fresh `select … from … where …`.
 */
export async function countMatches(db: Db, matches: () => Matches): Promise<{ total: number; exact: boolean }> {
  const capped = await db.execute(sql`select count(*)::int as n from (${matches().limit(EXACT_COUNT_LIMIT + 1)}) capped`);
  const n = Number((capped as unknown as { rows: Array<{ n: number }> }).rows[0]?.n ?? 0);
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
