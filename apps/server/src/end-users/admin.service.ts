import { Readable } from 'node:stream';
import { and, desc, eq, gt, gte, inArray, like, lt, lte, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { EndUser, EndUserDetail, EndUserFilter, EndUserListQuery, Locale } from '@mowerline/contract';
import { eventSubject } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { bound, presentKeys, preparedByShape } from '../db/prepared.ts';
import { countMatches } from '../devices/count.ts';
import { csvCell, csvLine } from '../devices/csv.ts';
import { deviceState, devices, NEVER_SEEN, seenAt } from '../devices/devices.sql.ts';
import { AppError } from '../http/envelope.ts';
import { productModels } from '../product/product.sql.ts';
import { getUser, mailCode } from './accounts.service.ts';
import { revokeAppSessions } from './app-session.ts';
import { unbindAll } from './binding.service.ts';
import { appDeviceLinks, appUsers, userLogs, type AppUserRow } from './end-users.sql.ts';
import { parseCursor, pseudonymize, recentUserLog } from './user-log.service.ts';
import { emit } from '../events/emit.ts';
import { activateRegistration } from './end-user-events.ts';

export function toEndUser(r: AppUserRow): EndUser {
  return {
    id: r.id,
    email: r.email,
    name: r.name,
    phone: r.phone,
    country: r.country,
    city: r.city,
    locale: r.locale as Locale,
    timeZone: r.timeZone,
    status: r.status,
    deviceCount: r.deviceCount,
    createdAt: r.createdAt.toISOString(),
    lastLoginAt: r.lastLoginAt?.toISOString() ?? null,
    deletionAt: r.deletionAt?.toISOString() ?? null,
    disabledReason: r.disabledReason,
  };
}

const likePrefix = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The filter's values as the SQL compares them; a keyword with `@` is an e-mail prefix only. */
function filterValues(f: EndUserFilter) {
  const keyword = f.keyword ? likePrefix(f.keyword.toLowerCase()) : undefined;
  const email = f.keyword?.includes('@');
  return {
    email: email ? keyword : undefined,
    emailOrName: email ? undefined : keyword,
    country: f.country || undefined,
    city: f.city || undefined,
    status: f.status || undefined,
    registeredFrom: f.registeredFrom ? new Date(f.registeredFrom) : undefined,
    registeredTo: f.registeredTo ? new Date(f.registeredTo) : undefined,
    withDevice: f.hasDevice === true || undefined,
    withoutDevice: f.hasDevice === false || undefined,
  };
}
type FilterValues = ReturnType<typeof filterValues>;

/**
 * Each filter is an index range ending in id (end-users.sql.ts), so newest-first pages stay cheap.
 * Each value is a slot of a prepared query or a bound parameter.
 */
function conditions(v: FilterValues, value: (name: keyof FilterValues) => SQLWrapper): SQL[] {
  const where: SQL[] = [];
  if (v.email !== undefined) where.push(like(appUsers.email, value('email')));
  if (v.emailOrName !== undefined) where.push(or(like(appUsers.email, value('emailOrName')), like(sql`lower(${appUsers.name})`, value('emailOrName')))!);
  if (v.country !== undefined) where.push(eq(appUsers.country, value('country')));
  if (v.city !== undefined) where.push(eq(appUsers.city, value('city')));
  if (v.status !== undefined) where.push(eq(appUsers.status, value('status')));
  if (v.registeredFrom !== undefined) where.push(gte(appUsers.createdAt, value('registeredFrom')));
  if (v.registeredTo !== undefined) where.push(lte(appUsers.createdAt, value('registeredTo')));
  if (v.withDevice) where.push(gt(appUsers.deviceCount, 0));
  if (v.withoutDevice) where.push(eq(appUsers.deviceCount, 0));
  return where;
}

export async function listEndUsers(db: Db, q: EndUserListQuery) {
  const values = filterValues(q);
  const parsed = parseCursor(q.cursor);
  // Ids are 32-bit: a cursor past the largest bounds nothing (the database would refuse the number).
  const after = parsed === undefined || parsed > 2_147_483_647 ? undefined : parsed;
  const page = preparedByShape(db, `endUsers:${presentKeys(values)}:${after === undefined ? 'offset' : 'cursor'}`, (slot) =>
    db
      .select()
      .from(appUsers)
      .where(and(...conditions(values, slot), after === undefined ? undefined : lt(appUsers.id, slot('after'))))
      .orderBy(desc(appUsers.id))
      .limit(slot('limit'))
      .offset(slot('offset')),
  );
  const [rows, { total, exact }] = await Promise.all([
    page.execute({ ...values, after, limit: q.pageSize + 1, offset: parsed === undefined ? (q.page - 1) * q.pageSize : 0 }),
    countMatches(db, {
      shape: `endUsers:${presentKeys(values)}`,
      values,
      matches: (value) => db.select({ id: appUsers.id }).from(appUsers).where(and(...conditions(values, value))).$dynamic(),
    }),
  ]);
  const list = rows.slice(0, q.pageSize).map(toEndUser);
  return { list, total, totalExact: exact, nextCursor: rows.length > q.pageSize ? String(list[list.length - 1]!.id) : null };
}

export async function endUserDetail(db: Db, ctx: AppContext, id: number): Promise<EndUserDetail> {
  const user = await getUser(ctx, id);
  const links = await db
    .select({
      sn: appDeviceLinks.sn,
      role: appDeviceLinks.role,
      boundAt: appDeviceLinks.createdAt,
      modelCode: productModels.code,
      online: deviceState.online,
      state: deviceState.state,
      lastSeenAt: seenAt,
    })
    .from(appDeviceLinks)
    .innerJoin(devices, eq(devices.sn, appDeviceLinks.sn))
    .innerJoin(productModels, eq(productModels.id, devices.modelId))
    .leftJoin(deviceState, eq(deviceState.sn, appDeviceLinks.sn))
    .where(eq(appDeviceLinks.userId, id))
    .orderBy(appDeviceLinks.sn);
  const others =
    links.length === 0
      ? []
      : await db
          .select({ sn: appDeviceLinks.sn, role: appDeviceLinks.role, email: appUsers.email })
          .from(appDeviceLinks)
          .innerJoin(appUsers, eq(appUsers.id, appDeviceLinks.userId))
          .where(and(inArray(appDeviceLinks.sn, links.map((l) => l.sn)), sql`${appDeviceLinks.userId} <> ${id}`));
  return {
    ...toEndUser(user),
    home: user.homeLat === null || user.homeLng === null ? null : { lat: user.homeLat, lng: user.homeLng },
    devices: links.map((l) => ({
      sn: l.sn,
      modelCode: l.modelCode,
      role: l.role,
      boundAt: l.boundAt.toISOString(),
      online: l.online ?? false,
      state: (l.online ? (l.state ?? 'idle') : 'offline') as EndUserDetail['devices'][number]['state'],
      lastSeenAt: !l.lastSeenAt || l.lastSeenAt.getTime() === NEVER_SEEN.getTime() ? null : l.lastSeenAt.toISOString(),
      // The owner sees who shares; a shared user sees the owner.
      others: others.filter((o) => o.sn === l.sn && (l.role === 'owner' ? o.role === 'shared' : o.role === 'owner')).map((o) => o.email),
    })),
    activity: await recentUserLog(db, id, 50),
  };
}

function requireStatus(user: AppUserRow, allowed: AppUserRow['status'][]) {
  if (!allowed.includes(user.status)) throw new AppError('END_USER_STATE', { status: user.status });
}

async function setStatus(ctx: AppContext, id: number, set: Partial<typeof appUsers.$inferInsert>): Promise<EndUser> {
  const [row] = await ctx.db.update(appUsers).set({ ...set, updatedAt: new Date() }).where(eq(appUsers.id, id)).returning();
  return toEndUser(row!);
}

/** Support confirms an account whose verification mail never arrived. */
export async function confirmEndUser(ctx: AppContext, id: number) {
  const user = await getUser(ctx, id);
  requireStatus(user, ['unverified']);
  const after = await activateRegistration(ctx.db, id);
  return { user, after: after ? toEndUser(after) : toEndUser(await getUser(ctx, id)) };
}

/** Disables an account and ends its app sessions at once; a pending deletion is called off. */
export async function disableEndUser(ctx: AppContext, id: number, reason: string) {
  const user = await getUser(ctx, id);
  requireStatus(user, ['active', 'unverified', 'deletion_pending']);
  const after = await setStatus(ctx, id, { status: 'disabled', disabledReason: reason, deletionAt: null });
  const revoked = await revokeAppSessions(ctx.db, id);
  return { user, after, revoked };
}

export async function enableEndUser(ctx: AppContext, id: number) {
  const user = await getUser(ctx, id);
  requireStatus(user, ['disabled']);
  return { user, after: await setStatus(ctx, id, { status: 'active', disabledReason: '' }) };
}

export async function sendResetToEndUser(ctx: AppContext, id: number) {
  const user = await getUser(ctx, id);
  requireStatus(user, ['active', 'unverified', 'deletion_pending']);
  await mailCode(ctx, user, 'reset');
  return user;
}

export async function cancelEndUserDeletion(ctx: AppContext, id: number) {
  const user = await getUser(ctx, id);
  requireStatus(user, ['deletion_pending']);
  return { user, after: await setStatus(ctx, id, { status: 'active', deletionAt: null }) };
}

/**
 * Erases the accounts whose grace period is over at `now`: their mowers are unbound, their log
 * rows lose the e-mail (the number stays, naming no one), the account row and its sessions go.
 */
export async function eraseDueAccounts(ctx: AppContext, now = new Date()): Promise<number[]> {
  const due = await ctx.db
    .select({ id: appUsers.id })
    .from(appUsers)
    .where(and(eq(appUsers.status, 'deletion_pending'), lte(appUsers.deletionAt, now)))
    .limit(200);
  const erased: number[] = [];
  for (const { id } of due) {
    const sns = await ctx.db.transaction(async (tx) => {
      const unbound = await unbindAll(tx, id);
      await tx.delete(appUsers).where(eq(appUsers.id, id));
      await emit(tx, { type: 'end_user.deleted', subject: eventSubject.endUser(id), payload: { userId: id, at: now.toISOString() } });
      return unbound;
    });
    await pseudonymize(ctx.db, id);
    await ctx.db.insert(userLogs).values({ at: now, userId: id, action: 'delete.complete', result: 'success', detail: { unbound: sns.length } });
    erased.push(id);
  }
  return erased;
}

const header = ['id', 'email', 'name', 'phone', 'country', 'city', 'status', 'deviceCount', 'locale', 'timeZone', 'createdAt', 'lastLoginAt', 'deletionAt', 'disabledReason'];

export function exportEndUsers(db: Db, filter: EndUserFilter): Readable {
  async function* lines() {
    yield '\ufeff' + csvLine(header);
    const values = filterValues(filter);
    const where = conditions(values, bound(values));
    let after: number | undefined;
    for (;;) {
      const rows = await db
        .select()
        .from(appUsers)
        // Ids are 32-bit: a cursor past the largest bounds nothing (the database would refuse the number).
      .where(and(...where, after === undefined || after > 2_147_483_647 ? undefined : lt(appUsers.id, after)))
        .orderBy(desc(appUsers.id))
        .limit(1000);
      for (const r of rows.map(toEndUser)) {
        yield csvLine([
          csvCell(r.id),
          csvCell(r.email, true),
          csvCell(r.name, true),
          csvCell(r.phone, true),
          csvCell(r.country),
          csvCell(r.city, true),
          csvCell(r.status),
          csvCell(r.deviceCount),
          csvCell(r.locale),
          csvCell(r.timeZone),
          csvCell(r.createdAt),
          csvCell(r.lastLoginAt),
          csvCell(r.deletionAt),
          csvCell(r.disabledReason, true),
        ]);
      }
      if (rows.length < 1000) return;
      after = rows[rows.length - 1]!.id;
    }
  }
  return Readable.from(lines());
}
