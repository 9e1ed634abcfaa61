import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { and, eq, gt, isNull, ne, or, sql } from 'drizzle-orm';
import { checkPassword, type Locale, type ResetPasswordBody, type StaffLinkResult } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../http/envelope.ts';
import { requestMeta } from '../http/request-meta.ts';
import { staffUsers, type StaffRow } from '../staff/staff.sql.ts';
import { passwordResets } from './auth.sql.ts';
import { formAllowedForEmail, formAllowedFromIp } from './form-limits.service.ts';
import { recordAttempt } from './login-attempts.service.ts';
import { hashPassword } from './password.ts';
import { revokeUserSessions } from './session.service.ts';
import { staffChanged } from '../staff/staff-events.ts';

/** Only the SHA-256 of a link's token is stored: a leaked table cannot be turned into working links. */
const tokenHashOf = (token: string) => createHash('sha256').update(token).digest('hex');

export type ResetLinkTemplate = 'password-reset' | 'staff-invite';

/** Marks every unused link of a user as used: a newer link, a reset or a password change retires them. */
export async function retireResetLinks(db: Db, userId: number): Promise<void> {
  await db.update(passwordResets).set({ usedAt: new Date() }).where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}

/**
 * Mails a single-use link to `${publicUrl}/#/reset-password?token=…` that lets the user choose a
 * password within `resetLinkTtlMs`: 'password-reset' for forgot-password and admin resets,
 * 'staff-invite' for a new account created without a password. Older links of the user stop working.
 */
export async function issueResetLink(
  ctx: AppContext,
  user: Pick<StaffRow, 'id' | 'username' | 'name' | 'email'>,
  template: ResetLinkTemplate,
  locale: Locale,
): Promise<{ expiresAt: Date; mail: 'sent' | 'failed' | 'not_sent'; link: string }> {
  if (!user.email) throw new AppError('NO_EMAIL');
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + ctx.config.resetLinkTtlMs);
  await ctx.db.transaction(async (tx) => {
    await retireResetLinks(tx, user.id);
    await tx.insert(passwordResets).values({ tokenHash: tokenHashOf(token), userId: user.id, expiresAt });
  });
  const link = `${ctx.config.publicUrl}/#/reset-password?token=${token}`;
  const minutes = Math.max(1, Math.round(ctx.config.resetLinkTtlMs / 60_000));
  const sent =
    template === 'staff-invite'
      ? await ctx.mailer.send({ to: user.email, template, params: { name: user.name, username: user.username, link, minutes }, locale })
      : await ctx.mailer.send({ to: user.email, template, params: { name: user.name, link, minutes }, locale });
  return { expiresAt, mail: sent.status, link };
}

/**
 * An admin's view of a link just issued: the link itself only when its mail did not go out, so the
 * admin can hand it over; a mailed link stays in the mailbox it was meant for.
 */
export function linkForAdmin(issued: { expiresAt: Date; mail: 'sent' | 'failed' | 'not_sent'; link: string }): StaffLinkResult {
  return { mail: issued.mail, link: issued.mail === 'sent' ? null : issued.link, expiresAt: issued.expiresAt.toISOString() };
}

/**
 * Forgot password: mails a reset link to each active account whose username or email matches
 * (case-insensitively). The caller answers success before this runs, whatever it finds. Limited
 * per address and per mailbox (form-limits.service.ts): beyond either nothing is mailed, and the
 * answer stays the same, so the limit tells nothing about the account either.
 */
export async function requestPasswordReset(ctx: AppContext, request: FastifyRequest, identifier: string, locale: Locale): Promise<void> {
  if (!(await formAllowedFromIp(ctx, 'forgot', requestMeta(request).ip))) {
    await ctx.audit(request, { action: 'auth.password.forgot', result: 'failure', actor: { id: null, name: identifier }, targetType: 'staff', detail: { error: 'FORM_LIMITED' } });
    return;
  }
  const key = identifier.toLowerCase();
  const matches = await ctx.db
    .select()
    .from(staffUsers)
    .where(
      and(
        or(sql`lower(${staffUsers.username}) = ${key}`, sql`lower(${staffUsers.email}) = ${key}`),
        eq(staffUsers.status, 'active'),
        ne(staffUsers.email, ''),
      ),
    )
    .limit(5);
  let limited = 0;
  for (const user of matches) {
    if (await formAllowedForEmail(ctx, 'forgot', user.email)) await issueResetLink(ctx, user, 'password-reset', locale);
    else limited++;
  }
  await ctx.audit(request, {
    action: 'auth.password.forgot',
    result: matches.length > limited ? 'success' : 'failure',
    actor: { id: null, name: identifier },
    targetType: 'staff',
    targetId: matches.map((u) => u.id).join(','),
    targetName: matches.map((u) => u.username).join(','),
    detail: { matched: matches.length, ...(limited > 0 ? { limited } : {}) },
  });
}

/**
 * Sets a new password from a reset link. The link is checked first and used up only once the new
 * password passes the policy, so a weak choice does not waste it. Every session of the user is
 * revoked, and the reset counts as a success for lock-out: proving the mailbox lifts a lock.
 */
export async function resetPassword(ctx: AppContext, request: FastifyRequest, body: ResetPasswordBody): Promise<void> {
  const tokenHash = tokenHashOf(body.token);
  const alive = (now: Date) => and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now));
  const [found] = await ctx.db
    .select({ user: staffUsers })
    .from(passwordResets)
    .innerJoin(staffUsers, eq(staffUsers.id, passwordResets.userId))
    .where(and(alive(new Date()), eq(staffUsers.status, 'active')))
    .limit(1);
  if (!found) {
    await ctx.audit(request, { action: 'auth.password.reset', result: 'failure', actor: { id: null, name: '' }, detail: { reason: 'invalid_token' } });
    throw new AppError('RESET_TOKEN_INVALID');
  }
  const user = found.user;
  if (!checkPassword(body.newPassword, user.username)) throw new AppError('WEAK_PASSWORD');
  const passwordHash = await hashPassword(body.newPassword, ctx.config.passwordHashCost);
  const now = new Date();
  const revoked = await ctx.db.transaction(async (tx) => {
    // Claiming the link inside the transaction settles two simultaneous uses: one wins.
    const claimed = await tx.update(passwordResets).set({ usedAt: now }).where(alive(now)).returning({ userId: passwordResets.userId });
    if (claimed.length === 0) throw new AppError('RESET_TOKEN_INVALID');
    await tx.update(staffUsers).set({ passwordHash, passwordChangedAt: now, updatedAt: now }).where(eq(staffUsers.id, user.id));
    await retireResetLinks(tx, user.id);
    await staffChanged(tx, user, 'password_changed', user.username, { ip: requestMeta(request).ip }, now);
    return revokeUserSessions(tx, user.id);
  });
  await recordAttempt(ctx, user.username.toLowerCase(), requestMeta(request).ip, 'password_reset');
  await ctx.audit(request, {
    action: 'auth.password.reset',
    result: 'success',
    actor: { id: user.id, name: user.username },
    targetType: 'staff',
    targetId: user.id,
    targetName: user.username,
    detail: { revokedSessions: revoked },
  });
}
