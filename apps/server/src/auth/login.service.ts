import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import type { ErrorKey, LoginBody, LoginResult } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/envelope.ts';
import { staffUsers, type StaffRow } from '../staff/staff.sql.ts';
import type { LoginOutcome } from './auth.sql.ts';
import { solveCaptcha } from './captcha.service.ts';
import { captchaLevel, lockedMinutes, recordAttempt, recordLockOut } from './login-attempts.service.ts';
import { verifyPassword } from './password.ts';
import { trustedUsername } from './trust-token.ts';
import { completeSignIn } from './complete-sign-in.ts';
import { hasActiveFactor } from '../two-factor/factors.service.ts';
import { issueChallenge } from '../two-factor/second-factor.service.ts';

/** A staff account by username, case-insensitively (the unique index is on lower(username)). */
export async function findStaffByUsername(ctx: AppContext, username: string): Promise<StaffRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(staffUsers)
    .where(sql`lower(${staffUsers.username}) = ${username.toLowerCase()}`)
    .limit(1);
  return row;
}

type Refusal = Exclude<LoginOutcome, 'ok' | 'password_reset' | 'second_factor' | 'wrong_code'>;
const refusalError: Record<Refusal, ErrorKey> = {
  locked: 'ACCOUNT_LOCKED',
  captcha_required: 'CAPTCHA_REQUIRED',
  captcha_invalid: 'CAPTCHA_INVALID',
  wrong_password: 'LOGIN_FAILED',
  pending: 'ACCOUNT_PENDING',
  disabled: 'ACCOUNT_DISABLED',
};

/**
 * Sign-in, in the order that leaks least: lock-out (per source, login-attempts.service.ts), then
 * the proof-of-work captcha of the level the failures call for (when required the password is
 * not even checked; a browser trusted for the username skips it), then the password (argon2 work is spent for unknown usernames too), and only
 * after a correct password the account status. Every attempt is recorded and audited.
 */
export async function signIn(app: FastifyInstance, ctx: AppContext, request: FastifyRequest, body: LoginBody): Promise<LoginResult> {
  const username = body.username.toLowerCase();
  const ip = request.ip;
  const trusted = trustedUsername(app, request) === username;

  /** Records and audits a refused attempt, then throws its error; the data tells the console whether to show a captcha. */
  const refuse = async (outcome: Refusal, user?: StaffRow): Promise<never> => {
    await recordAttempt(ctx, username, ip, outcome, trusted);
    // The wrong password that reaches the limit already answers "locked", so the user learns it now.
    const minutes = outcome === 'locked' || outcome === 'wrong_password' ? await lockedMinutes(ctx, username, ip, trusted) : 0;
    if (outcome === 'wrong_password' && minutes > 0) await recordLockOut(ctx, username, ip, minutes);
    await ctx.audit(request, {
      action: 'auth.login',
      result: 'failure',
      actor: { id: user?.id ?? null, name: body.username },
      targetType: 'staff',
      targetId: user?.id,
      targetName: user?.username ?? body.username,
      detail: { reason: outcome, ...(minutes > 0 ? { lockedMinutes: minutes } : {}) },
    });
    const captchaRequired = !trusted && (await captchaLevel(ctx, username, ip)) > 0;
    if (minutes > 0) throw new AppError('ACCOUNT_LOCKED', { minutes }, { captchaRequired });
    throw new AppError(refusalError[outcome], {}, { captchaRequired });
  };

  if ((await lockedMinutes(ctx, username, ip, trusted)) > 0) return refuse('locked');

  const level = trusted ? 0 : await captchaLevel(ctx, username, ip);
  if (level > 0) {
    if (!body.captcha) return refuse('captcha_required');
    if (!(await solveCaptcha(ctx, body.captcha, level))) return refuse('captcha_invalid');
  }

  const user = await findStaffByUsername(ctx, username);
  const passwordOk = await verifyPassword(user?.passwordHash, body.password, ctx.config.passwordHashCost);
  if (!user || !passwordOk) return refuse('wrong_password', user);
  if (user.status === 'pending') return refuse('pending', user);
  if (user.status === 'disabled') return refuse('disabled', user);

  if (await hasActiveFactor(ctx.db, user.id)) {
    // Not a success yet (a success would restart the lock-out window and let a password thief
    // guess codes forever): the second step finishes it (two-factor/second-factor.service.ts).
    await recordAttempt(ctx, username, ip, 'second_factor', trusted);
    throw new AppError('SECOND_FACTOR_REQUIRED', {}, await issueChallenge(ctx, user.id, body.remember ?? false, trusted));
  }
  await recordAttempt(ctx, username, ip, 'ok', trusted);
  return completeSignIn(app, ctx, request, user, body.remember ?? false, {});
}
