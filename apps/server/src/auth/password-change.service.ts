import type { FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import { checkPassword, type ChangePasswordBody } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import type { Principal } from '../http/auth.ts';
import { AppError } from '../http/envelope.ts';
import { requestMeta } from '../http/request-meta.ts';
import { staffUsers } from '../staff/staff.sql.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { retireResetLinks } from './password-reset.service.ts';
import { revokeUserSessions } from './session.service.ts';
import { staffChanged } from '../staff/staff-events.ts';

/**
 * The signed-in user changes their password: the current one must be right, the new one must
 * differ and meet the policy. Every other session is signed out (this one stays), outstanding
 * reset links die, and the user gets a notice in case it was not them.
 */
export async function changePassword(ctx: AppContext, request: FastifyRequest, me: Principal, body: ChangePasswordBody): Promise<void> {
  const [row] = await ctx.db.select({ passwordHash: staffUsers.passwordHash }).from(staffUsers).where(eq(staffUsers.id, me.id)).limit(1);
  const target = { targetType: 'staff', targetId: me.id, targetName: me.username } as const;
  if (!(await verifyPassword(row?.passwordHash, body.oldPassword, ctx.config.passwordHashCost))) {
    // A stolen session guessing the password is worth seeing in the log.
    await ctx.audit(request, { action: 'auth.password.change', result: 'failure', ...target, detail: { reason: 'wrong_old_password' } });
    throw new AppError('WRONG_OLD_PASSWORD');
  }
  if (body.newPassword === body.oldPassword) throw new AppError('SAME_PASSWORD');
  if (!checkPassword(body.newPassword, me.username)) throw new AppError('WEAK_PASSWORD');

  const passwordHash = await hashPassword(body.newPassword, ctx.config.passwordHashCost);
  const now = new Date();
  const revoked = await ctx.db.transaction(async (tx) => {
    await tx.update(staffUsers).set({ passwordHash, passwordChangedAt: now, updatedAt: now }).where(eq(staffUsers.id, me.id));
    await retireResetLinks(tx, me.id);
    await staffChanged(tx, { id: me.id, username: me.username, role: me.role }, 'password_changed', me.username, { ip: requestMeta(request).ip }, now);
    return revokeUserSessions(tx, me.id, me.sessionId);
  });
  await ctx.audit(request, { action: 'auth.password.change', result: 'success', ...target, detail: { revokedSessions: revoked } });
}
