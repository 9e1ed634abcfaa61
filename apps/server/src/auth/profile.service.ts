import type { FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import type { ProfileBody, UserInfo } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/envelope.ts';
import type { Principal } from '../http/auth.ts';
import { staffUsers, type StaffRow } from '../staff/staff.sql.ts';
import { hasActiveFactor, mustHaveFactor } from '../two-factor/factors.service.ts';

/** The stable id shown in the user center: never reused, independent of username changes. */
export const accountIdOf = (id: number) => `ML-${String(id).padStart(6, '0')}`;

/** Spec §3 user info from a staff row (the meaning of each derived field is in the contract). */
export function toUserInfo(row: StaffRow, mustEnrolSecondFactor: boolean): UserInfo {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    role: row.role,
    avatar: row.avatar,
    email: row.email,
    job: row.job,
    jobName: row.job,
    organization: row.organization,
    organizationName: row.organization,
    location: row.location,
    locationName: row.location,
    introduction: row.introduction,
    personalWebsite: row.personalWebsite,
    phone: row.phone,
    registrationDate: row.createdAt.toISOString(),
    accountId: accountIdOf(row.id),
    certification: row.role === 'admin' ? 1 : 0,
    mustEnrolSecondFactor,
  };
}

export async function userInfo(ctx: AppContext, userId: number): Promise<UserInfo> {
  const [row] = await ctx.db.select().from(staffUsers).where(eq(staffUsers.id, userId)).limit(1);
  if (!row) throw new AppError('NOT_SIGNED_IN');
  return toUserInfo(row, await mustEnrol(ctx, row));
}

/** The policy wants a second factor of this account's role and it has none yet. */
async function mustEnrol(ctx: AppContext, row: StaffRow): Promise<boolean> {
  return mustHaveFactor(ctx, row.role) && !(await hasActiveFactor(ctx.db, row.id));
}

/** The user center's "basic information": only the fields sent change; audited with their names, not values. */
export async function updateProfile(ctx: AppContext, request: FastifyRequest, me: Principal, body: ProfileBody): Promise<UserInfo> {
  const fields = Object.keys(body).filter((k) => body[k as keyof ProfileBody] !== undefined);
  if (fields.length === 0) return userInfo(ctx, me.id);
  const [row] = await ctx.db
    .update(staffUsers)
    .set({ ...body, updatedAt: new Date() })
    .where(eq(staffUsers.id, me.id))
    .returning();
  if (!row) throw new AppError('NOT_SIGNED_IN');
  await ctx.audit(request, {
    action: 'auth.profile.update',
    result: 'success',
    targetType: 'staff',
    targetId: me.id,
    targetName: me.username,
    detail: { fields },
  });
  return toUserInfo(row, await mustEnrol(ctx, row));
}
