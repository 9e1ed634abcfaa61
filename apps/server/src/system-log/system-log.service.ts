import { and, count, desc, eq, gte, ilike, like, lte, or, type SQL } from 'drizzle-orm';
import type { Page, SystemLog, SystemLogQuery } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { containsPattern, pageOffset, prefixPattern } from '../db/helpers.ts';
import { systemLogs } from './system-log.sql.ts';

/**
 * `auth.login` matches exactly; `auth` or `auth.` matches the whole family (`auth.login`,
 * `auth.password.change`, ...), so the console can filter by area or by one action.
 */
function actionFilter(action: string): SQL {
  const family = action.replace(/\.+$/, '');
  return or(eq(systemLogs.action, action), like(systemLogs.action, prefixPattern(`${family}.`)))!;
}

/** GET /api/admin/system/log: newest first. */
export async function listSystemLogs(db: Db, query: SystemLogQuery): Promise<Page<SystemLog>> {
  const filters: SQL[] = [];
  if (query.actor) filters.push(ilike(systemLogs.actorName, containsPattern(query.actor)));
  if (query.action) filters.push(actionFilter(query.action));
  if (query.targetType) filters.push(eq(systemLogs.targetType, query.targetType));
  if (query.result) filters.push(eq(systemLogs.result, query.result));
  if (query.from) filters.push(gte(systemLogs.at, new Date(query.from)));
  if (query.to) filters.push(lte(systemLogs.at, new Date(query.to)));
  const where = and(...filters);
  const [rows, [total]] = await Promise.all([
    db.select().from(systemLogs).where(where).orderBy(desc(systemLogs.at), desc(systemLogs.id)).limit(query.pageSize).offset(pageOffset(query)),
    db.select({ n: count() }).from(systemLogs).where(where),
  ]);
  return {
    list: rows.map((row) => ({ ...row, at: row.at.toISOString() })),
    total: total?.n ?? 0,
  };
}
