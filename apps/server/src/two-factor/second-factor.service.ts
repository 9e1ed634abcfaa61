import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { LoginResult, SecondFactorBody, SecondFactorChallenge } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { completeSignIn } from '../auth/complete-sign-in.ts';
import { lockedMinutes, recordAttempt } from '../auth/login-attempts.service.ts';
import { AppError } from '../http/envelope.ts';
import { staffUsers } from '../staff/staff.sql.ts';
import { proofKindsOf, spendProof } from './factors.service.ts';
import { passkeyRequest } from './passkeys.ts';
import { secondFactorChallenges } from './two-factor.sql.ts';

/** How long the second step of a sign-in may take, and how many wrong codes one challenge survives. */
export const CHALLENGE_TTL_SECONDS = 300;
const CHALLENGE_MAX_FAILURES = 5;

export async function issueChallenge(ctx: AppContext, userId: number, remember: boolean, trusted: boolean): Promise<SecondFactorChallenge> {
  // Expired challenges are worthless: each new one sweeps them.
  await ctx.db.delete(secondFactorChallenges).where(lt(secondFactorChallenges.expiresAt, new Date()));
  const [row] = await ctx.db
    .insert(secondFactorChallenges)
    .values({ userId, remember, trusted, expiresAt: new Date(Date.now() + CHALLENGE_TTL_SECONDS * 1000) })
    .returning({ id: secondFactorChallenges.id });
  return { challengeId: row!.id, factors: await proofKindsOf(ctx.db, userId), expiresIn: CHALLENGE_TTL_SECONDS };
}

/**
 * POST /api/admin/user/login/second-factor. The challenge stands for a right password given a
 * moment ago; a wrong code counts toward the lock-out of the username from this source exactly
 * like a wrong password, and a challenge dies after a few of them or once used.
 */
export async function finishSignIn(app: FastifyInstance, ctx: AppContext, request: FastifyRequest, body: SecondFactorBody): Promise<LoginResult> {
  const [found] = await ctx.db
    .select({ challenge: secondFactorChallenges, user: staffUsers })
    .from(secondFactorChallenges)
    .innerJoin(staffUsers, eq(staffUsers.id, secondFactorChallenges.userId))
    .where(and(eq(secondFactorChallenges.id, body.challengeId), eq(secondFactorChallenges.purpose, 'login'), isNull(secondFactorChallenges.usedAt), gt(secondFactorChallenges.expiresAt, new Date())))
    .limit(1);
  if (!found || found.user.status !== 'active') throw new AppError('SECOND_FACTOR_EXPIRED');
  const { challenge, user } = found;
  const username = user.username.toLowerCase();
  const ip = request.ip;
  const audit = (result: 'success' | 'failure', detail: Record<string, unknown>) =>
    ctx.audit(request, { action: 'auth.login', result, actor: { id: user.id, name: user.username }, targetType: 'staff', targetId: user.id, targetName: user.username, detail });

  const locked = await lockedMinutes(ctx, username, ip, challenge.trusted);
  if (locked > 0) {
    await audit('failure', { reason: 'locked', step: 'second_factor', lockedMinutes: locked });
    throw new AppError('ACCOUNT_LOCKED', { minutes: locked });
  }

  const used = await spendProof(ctx, user.id, { ...body, webauthnChallenge: challenge.webauthnChallenge });
  if (!used) {
    await recordAttempt(ctx, username, ip, 'wrong_code', challenge.trusted);
    await ctx.db
      .update(secondFactorChallenges)
      .set({ failures: sql`${secondFactorChallenges.failures} + 1`, usedAt: challenge.failures + 1 >= CHALLENGE_MAX_FAILURES ? new Date() : null })
      .where(eq(secondFactorChallenges.id, challenge.id));
    const minutes = await lockedMinutes(ctx, username, ip, challenge.trusted);
    await audit('failure', { reason: 'wrong_code', ...(minutes > 0 ? { lockedMinutes: minutes } : {}) });
    if (minutes > 0) throw new AppError('ACCOUNT_LOCKED', { minutes });
    throw new AppError('SECOND_FACTOR_INVALID');
  }

  // Single use even when two requests race with two right codes.
  const [won] = await ctx.db
    .update(secondFactorChallenges)
    .set({ usedAt: new Date() })
    .where(and(eq(secondFactorChallenges.id, challenge.id), isNull(secondFactorChallenges.usedAt)))
    .returning({ id: secondFactorChallenges.id });
  if (!won) throw new AppError('SECOND_FACTOR_EXPIRED');
  await recordAttempt(ctx, username, ip, 'ok', challenge.trusted);
  return completeSignIn(app, ctx, request, user, challenge.remember, { factor: used });
}

/** Passkey request options for a live challenge (sign-in or step-up); the WebAuthn challenge is kept with it. */
export async function passkeyOptionsFor(ctx: AppContext, challengeId: string, userId?: number) {
  const [challenge] = await ctx.db
    .select()
    .from(secondFactorChallenges)
    .where(and(eq(secondFactorChallenges.id, challengeId), isNull(secondFactorChallenges.usedAt), gt(secondFactorChallenges.expiresAt, new Date())))
    .limit(1);
  if (!challenge || (userId !== undefined && challenge.userId !== userId)) throw new AppError('SECOND_FACTOR_EXPIRED');
  const options = await passkeyRequest(ctx, challenge.userId);
  await ctx.db.update(secondFactorChallenges).set({ webauthnChallenge: options.challenge }).where(eq(secondFactorChallenges.id, challenge.id));
  return options as unknown as Record<string, unknown>;
}

/** A step-up confirmation by passkey: a short-lived challenge of the signed-in user. */
export async function stepUpPasskeyOptions(ctx: AppContext, userId: number) {
  if (!(await proofKindsOf(ctx.db, userId)).includes('webauthn')) throw new AppError('FACTOR_NOT_FOUND');
  const [row] = await ctx.db
    .insert(secondFactorChallenges)
    .values({ userId, purpose: 'step-up', expiresAt: new Date(Date.now() + CHALLENGE_TTL_SECONDS * 1000) })
    .returning({ id: secondFactorChallenges.id });
  return { challengeId: row!.id, options: await passkeyOptionsFor(ctx, row!.id, userId) };
}

/** Spends a step-up challenge (once) and returns its WebAuthn challenge, or null. */
export async function takeStepUpChallenge(ctx: AppContext, userId: number, challengeId: string): Promise<string | null> {
  const [row] = await ctx.db
    .update(secondFactorChallenges)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(secondFactorChallenges.id, challengeId),
        eq(secondFactorChallenges.userId, userId),
        eq(secondFactorChallenges.purpose, 'step-up'),
        isNull(secondFactorChallenges.usedAt),
        gt(secondFactorChallenges.expiresAt, new Date()),
      ),
    )
    .returning({ webauthnChallenge: secondFactorChallenges.webauthnChallenge });
  return row?.webauthnChallenge ?? null;
}
