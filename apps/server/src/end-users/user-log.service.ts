import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { and, desc, eq, gte, inArray, lt, lte, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { UserLog, UserLogAction, UserLogQuery } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { bound, presentKeys, preparedByShape } from '../db/prepared.ts';
import { countMatches } from '../devices/count.ts';
import { csvCell, csvLine } from '../devices/csv.ts';
import { AppError } from '../http/envelope.ts';
import { appUsers, userLogs } from './end-users.sql.ts';

export interface UserLogEntry {
  action: UserLogAction;
  result: 'success' | 'failure';
  userId?: number | null;
  email?: string;
  sn?: string;
  detail?: Record<string, unknown>;
  /** The account's profile country, used when the request carries no country of its own. */
  country?: string;
}

/**
 * The country a request comes from: a trusted proxy's CF-IPCountry / X-Client-Country header
 * (there is no offline IP database here), else the account's profile country.
 */
function requestCountry(ctx: AppContext, request: FastifyRequest, fallback: string): string {
  if (ctx.config.trustProxy) {
    for (const name of ['cf-ipcountry', 'x-client-country']) {
      const value = request.headers[name];
      if (typeof value === 'string' && /^[A-Za-z]{2}$/.test(value) && value.toUpperCase() !== 'XX') return value.toUpperCase();
    }
  }
  return fallback;
}

export async function writeUserLog(ctx: AppContext, request: FastifyRequest, entry: UserLogEntry): Promise<void> {
  const principal = request.appUser;
  await ctx.db.insert(userLogs).values({
    at: new Date(),
    userId: entry.userId ?? principal?.id ?? null,
    email: entry.email ?? principal?.email ?? '',
    action: entry.action,
    result: entry.result,
    sn: entry.sn ?? '',
    ip: request.ip,
    country: requestCountry(ctx, request, entry.country ?? principal?.country ?? ''),
    detail: entry.detail ?? {},
  });
}

/**
 * Runs an app user's action and records it in the user log either way (a failure with its error
 * key); `note` adds what the work learns on the way (the SN it resolved, the ticket it made).
 */
export async function trackUserAction<T>(
  ctx: AppContext,
  request: FastifyRequest,
  entry: Omit<UserLogEntry, 'result'>,
  work: (note: (more: Partial<UserLogEntry>) => void) => Promise<T>,
): Promise<T> {
  let logged: Omit<UserLogEntry, 'result'> = entry;
  const note = (more: Partial<UserLogEntry>) => {
    logged = { ...logged, ...more, detail: { ...logged.detail, ...more.detail } };
  };
  try {
    const result = await work(note);
    await writeUserLog(ctx, request, { ...logged, result: 'success' });
    return result;
  } catch (err) {
    const error = err instanceof AppError ? err.key : 'FAILURE';
    await writeUserLog(ctx, request, { ...logged, result: 'failure', detail: { ...logged.detail, error } });
    throw err;
  }
}

type Filter = Omit<UserLogQuery, 'page' | 'pageSize' | 'cursor'>;

/** The filter's values as the SQL compares them; an e-mail of an existing account becomes its id. */
async function filterValues(db: Db, f: Filter) {
  let email: string | undefined;
  let userId = f.userId || undefined;
  if (f.email) {
    // An existing account's rows (also those written before an e-mail change); else rows naming it.
    const [user] = await db.select({ id: appUsers.id }).from(appUsers).where(eq(appUsers.email, f.email.toLowerCase()));
    if (user) userId = user.id;
    else email = f.email.toLowerCase();
  }
  // A user id and an e-mail naming another account match nothing, as two conditions on the id would.
  const otherUser = Boolean(f.userId && userId !== f.userId);
  return {
    userId: otherUser ? undefined : userId,
    email,
    sn: f.sn || undefined,
    action: f.action || undefined,
    result: f.result || undefined,
    from: f.from ? new Date(f.from) : undefined,
    to: f.to ? new Date(f.to) : undefined,
    none: otherUser || undefined,
  };
}

type FilterValues = Awaited<ReturnType<typeof filterValues>>;

/** The conditions of the values that are set, each value a slot of a prepared query or a bound parameter. */
function conditions(v: FilterValues, value: (name: keyof FilterValues) => SQLWrapper): SQL[] {
  const where: SQL[] = [];
  if (v.none) where.push(sql`false`);
  if (v.userId !== undefined) where.push(eq(userLogs.userId, value('userId')));
  if (v.email !== undefined) where.push(eq(userLogs.email, value('email')));
  if (v.sn !== undefined) where.push(eq(userLogs.sn, value('sn')));
  if (v.action !== undefined) where.push(eq(userLogs.action, value('action')));
  if (v.result !== undefined) where.push(eq(userLogs.result, value('result')));
  if (v.from !== undefined) where.push(gte(userLogs.at, value('from')));
  if (v.to !== undefined) where.push(lte(userLogs.at, value('to')));
  return where;
}

const toUserLog = (r: typeof userLogs.$inferSelect): UserLog => ({ ...r, at: r.at.toISOString() });

export function parseCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  if (!/^\d{1,18}$/.test(cursor)) throw new AppError('INVALID_CURSOR');
  return Number(cursor);
}

/** Newest first; `cursor` continues below the previous page's last id, `page` pages by offset. */
export async function listUserLog(db: Db, q: UserLogQuery) {
  const values = await filterValues(db, q);
  const after = parseCursor(q.cursor);
  const page = preparedByShape(db, `userLog:${presentKeys(values)}:${after === undefined ? 'offset' : 'cursor'}`, (slot) =>
    db
      .select()
      .from(userLogs)
      .where(and(...conditions(values, slot), after === undefined ? undefined : lt(userLogs.id, slot('after'))))
      .orderBy(desc(userLogs.id))
      .limit(slot('limit'))
      .offset(slot('offset')),
  );
  const [rows, { total, exact }] = await Promise.all([
    page.execute({ ...values, after, limit: q.pageSize + 1, offset: after === undefined ? (q.page - 1) * q.pageSize : 0 }),
    countMatches(db, {
      shape: `userLog:${presentKeys(values)}`,
      values,
      matches: (value) => db.select({ id: userLogs.id }).from(userLogs).where(and(...conditions(values, value))).$dynamic(),
    }),
  ]);
  const list = rows.slice(0, q.pageSize).map(toUserLog);
  return { list, total, totalExact: exact, nextCursor: rows.length > q.pageSize ? String(list[list.length - 1]!.id) : null };
}

/** The latest rows of one user (detail page, data export). */
export async function recentUserLog(db: Db, userId: number, limit: number): Promise<UserLog[]> {
  const rows = await db.select().from(userLogs).where(eq(userLogs.userId, userId)).orderBy(desc(userLogs.id)).limit(limit);
  return rows.map(toUserLog);
}

const header = ['id', 'at', 'userId', 'email', 'action', 'result', 'sn', 'ip', 'country', 'detail'];

export function exportUserLog(db: Db, filter: Filter): Readable {
  async function* lines() {
    yield '\ufeff' + csvLine(header);
    const values = await filterValues(db, filter);
    const where = conditions(values, bound(values));
    let after: number | undefined;
    for (;;) {
      const rows = await db
        .select()
        .from(userLogs)
        .where(and(...where, after === undefined ? undefined : lt(userLogs.id, after)))
        .orderBy(desc(userLogs.id))
        .limit(1000);
      for (const r of rows) {
        yield csvLine([
          csvCell(r.id),
          csvCell(r.at.toISOString()),
          csvCell(r.userId),
          csvCell(r.email, true),
          csvCell(r.action),
          csvCell(r.result),
          csvCell(r.sn),
          csvCell(r.ip),
          csvCell(r.country),
          csvCell(JSON.stringify(r.detail), true),
        ]);
      }
      if (rows.length < 1000) return;
      after = rows[rows.length - 1]!.id;
    }
  }
  return Readable.from(lines());
}

/** Deletes rows older than USER_LOG_RETENTION_DAYS, in bounded batches. */
export async function pruneUserLog(ctx: AppContext, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - ctx.config.userLogRetentionDays * 86_400_000);
  let removed = 0;
  for (;;) {
    const batch = await ctx.db.select({ id: userLogs.id }).from(userLogs).where(lt(userLogs.at, before)).limit(5000);
    if (batch.length === 0) return removed;
    await ctx.db.delete(userLogs).where(inArray(userLogs.id, batch.map((r) => r.id)));
    removed += batch.length;
    if (batch.length < 5000) return removed;
  }
}

/** Erased accounts keep their log rows under the bare (now meaningless) number. */
export async function pseudonymize(db: Db, userId: number): Promise<void> {
  await db.update(userLogs).set({ email: '', detail: sql`${userLogs.detail} - 'email' - 'name'` }).where(eq(userLogs.userId, userId));
}
