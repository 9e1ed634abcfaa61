import { and, count, desc, eq, ilike, ne, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import {
  checkPassword,
  locales,
  roleDescriptions,
  roles,
  type Locale,
  type Page,
  type RoleInfo,
  type StaffCreateBody,
  type StaffWriteResult,
  type StaffListQuery,
  type StaffUser,
} from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { containsPattern, isUniqueViolation, pageOffset } from '../db/helpers.ts';
import { hashPassword } from '../auth/password.ts';
import { issueResetLink, linkForAdmin } from '../auth/password-reset.service.ts';
import { AppError, localeOf } from '../http/envelope.ts';
import { principal } from '../http/auth.ts';
import { randomPassword } from './bootstrap.ts';
import { staffUsers, type StaffRow } from './staff.sql.ts';
import { staffChanged } from './staff-events.ts';

export function toStaffUser(row: StaffRow): StaffUser {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    email: row.email,
    phone: row.phone,
    role: row.role,
    status: row.status,
    requestReason: row.requestReason,
    createdAt: row.createdAt.toISOString(),
    lastLoginAt: row.lastLoginAt ? row.lastLoginAt.toISOString() : null,
  };
}

/** GET /api/admin/user: keyword over username, name and e-mail (case-insensitive), newest first. */
export async function listStaff(db: Db, query: StaffListQuery): Promise<Page<StaffUser>> {
  const filters: SQL[] = [];
  if (query.keyword) {
    const pattern = containsPattern(query.keyword);
    filters.push(or(ilike(staffUsers.username, pattern), ilike(staffUsers.name, pattern), ilike(staffUsers.email, pattern))!);
  }
  if (query.role) filters.push(eq(staffUsers.role, query.role));
  if (query.status) filters.push(eq(staffUsers.status, query.status));
  const where = and(...filters);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(staffUsers)
      .where(where)
      .orderBy(desc(staffUsers.createdAt), desc(staffUsers.id))
      .limit(query.pageSize)
      .offset(pageOffset(query)),
    db.select({ n: count() }).from(staffUsers).where(where),
  ]);
  return { list: rows.map(toStaffUser), total: total?.n ?? 0 };
}

/**
 * GET /api/admin/user/role: each role with its name and description in the caller's language and
 * how many accounts hold it (pending requests are not members yet). The keyword matches the role
 * key, name or description in either language.
 */
export async function listRoles(db: Db, locale: Locale, keyword?: string): Promise<RoleInfo[]> {
  const counts = await db
    .select({ role: staffUsers.role, n: count() })
    .from(staffUsers)
    .where(ne(staffUsers.status, 'pending'))
    .groupBy(staffUsers.role);
  const needle = keyword?.toLowerCase() ?? '';
  return roles
    .filter((role) => {
      if (!needle) return true;
      const texts = [role, ...locales.flatMap((l) => [roleDescriptions[role].name[l], roleDescriptions[role].description[l]])];
      return texts.some((text) => text.toLowerCase().includes(needle));
    })
    .map((role) => ({
      role,
      name: roleDescriptions[role].name[locale],
      description: roleDescriptions[role].description[locale],
      members: counts.find((c) => c.role === role)?.n ?? 0,
    }));
}

/**
 * POST /api/admin/user. With a password the account is ready to use; without one it gets a random
 * password nobody knows and the new colleague is mailed a link to choose their own.
 */
export async function createStaff(ctx: AppContext, request: FastifyRequest, body: StaffCreateBody): Promise<StaffWriteResult> {
  const actor = principal(request);
  const invited = body.password === undefined;
  let row: StaffRow;
  try {
    if (body.password !== undefined && !checkPassword(body.password, body.username)) throw new AppError('WEAK_PASSWORD');
    const [taken] = await ctx.db
      .select({ id: staffUsers.id })
      .from(staffUsers)
      .where(sql`lower(${staffUsers.username}) = lower(${body.username})`)
      .limit(1);
    if (taken) throw new AppError('USERNAME_TAKEN');
    const passwordHash = await hashPassword(body.password ?? randomPassword(), ctx.config.passwordHashCost);
    // The unique index on lower(username) settles a race between two creations of the same name.
    row = await ctx.db
      .transaction(async (tx) => {
        const [inserted] = await tx
          .insert(staffUsers)
          .values({ username: body.username, name: body.name, email: body.email, phone: body.phone ?? '', role: body.role, status: 'active', passwordHash })
          .returning();
        await staffChanged(tx, inserted!, 'created', actor.username);
        return inserted!;
      })
      .catch((err: unknown) => {
        throw isUniqueViolation(err) ? new AppError('USERNAME_TAKEN') : err;
      });
  } catch (err) {
    if (err instanceof AppError) {
      await ctx.audit(request, { action: 'staff.create', result: 'failure', targetType: 'staff', targetName: body.username, detail: { error: err.key } });
    }
    throw err;
  }

  // The link is issued before the audit entry so the entry can say whether it was mailed (never the link).
  const issued = invited ? await issueResetLink(ctx, row, 'staff-invite', localeOf(request)) : undefined;
  await ctx.audit(request, {
    action: 'staff.create',
    result: 'success',
    targetType: 'staff',
    targetId: row.id,
    targetName: row.username,
    detail: { username: row.username, name: row.name, email: row.email, phone: row.phone, role: row.role, invited, ...(issued ? { mail: issued.mail, linkShownToAdmin: issued.mail !== 'sent' } : {}) },
  });
  return { ...toStaffUser(row), ...(issued ? { resetLink: linkForAdmin(issued) } : {}) };
}
