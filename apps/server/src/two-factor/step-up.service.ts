import type { FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import type { StepUpBody } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { sessions } from '../auth/auth.sql.ts';
import { lockedMinutes, recordAttempt } from '../auth/login-attempts.service.ts';
import { verifyPassword } from '../auth/password.ts';
import type { Principal } from '../http/auth.ts';
import { AppError } from '../http/envelope.ts';
import { staffUsers } from '../staff/staff.sql.ts';
import { spendProof } from './factors.service.ts';
import { takeStepUpChallenge } from './second-factor.service.ts';

/**
 * POST /api/admin/user/step-up ("sudo mode"). An account with a second factor confirms with it
 * (TOTP or a recovery code); one without (only possible where REQUIRE_2FA_ROLES does not cover its
 * role) re-enters its password, as GitHub's sudo mode does. Wrong answers count toward the
 * lock-out like wrong sign-in codes, so a stolen session cannot guess its way to the dangerous
 * actions. Returns until when the confirmation counts.
 */
export async function stepUp(ctx: AppContext, request: FastifyRequest, me: Principal, body: StepUpBody): Promise<{ stepUpUntil: string; method: string }> {
  const username = me.username.toLowerCase();
  const locked = await lockedMinutes(ctx, username, request.ip, false);
  if (locked > 0) throw new AppError('ACCOUNT_LOCKED', { minutes: locked });

  let method: string | null = null;
  if (me.hasFactor) {
    // With a factor, the password alone is not a confirmation: it is what a thief would have.
    if (body.password === undefined) {
      const webauthnChallenge = body.webauthn && body.challengeId ? await takeStepUpChallenge(ctx, me.id, body.challengeId) : null;
      method = await spendProof(ctx, me.id, { ...body, webauthnChallenge });
    }
  } else if (body.password !== undefined) {
    const [row] = await ctx.db.select({ hash: staffUsers.passwordHash }).from(staffUsers).where(eq(staffUsers.id, me.id)).limit(1);
    if (await verifyPassword(row?.hash, body.password, ctx.config.passwordHashCost)) method = 'password';
  }
  if (!method) {
    await recordAttempt(ctx, username, request.ip, 'wrong_code', false);
    const minutes = await lockedMinutes(ctx, username, request.ip, false);
    if (minutes > 0) throw new AppError('ACCOUNT_LOCKED', { minutes });
    throw new AppError('STEP_UP_INVALID');
  }
  const now = new Date();
  await ctx.db.update(sessions).set({ stepUpAt: now }).where(eq(sessions.id, me.sessionId));
  return { stepUpUntil: new Date(now.getTime() + ctx.config.stepUpMs).toISOString(), method };
}
