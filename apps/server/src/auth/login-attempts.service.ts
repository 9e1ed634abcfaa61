import { and, count, desc, eq, gt, inArray, lt, max, notLike } from 'drizzle-orm';
import { eventSubject } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { emit } from '../events/emit.ts';
import { loginAttempts, type LoginOutcome } from './auth.sql.ts';
import { pruneFormHits } from './form-limits.service.ts';

/**
 * Captcha and lock-out decisions, made from the `login_attempts` rows so every server node agrees.
 * Usernames are compared lower-cased (sign-in is case-insensitive), and unknown usernames are
 * counted exactly like real ones, so neither rule reveals which accounts exist.
 */

/** The app's sign-in attempts are kept here under this prefix, which no staff username can have. */
export const APP_ATTEMPT_PREFIX = 'app:';

/**
 * Records an attempt. A refused staff attempt writes `security.sign_in_failed` with it (the app's
 * are not events: an owner's address is not for integrations, and the app has its own defences).
 */
export async function recordAttempt(ctx: AppContext, username: string, ip: string, outcome: LoginOutcome, trusted = false): Promise<void> {
  // The application clock, like every other expiry check, so a database on another host cannot skew it.
  const at = new Date();
  const success = outcome === 'ok' || outcome === 'password_reset';
  await ctx.db.transaction(async (tx) => {
    await tx.insert(loginAttempts).values({ username, ip, success, reason: outcome, trusted, at });
    if (success || outcome === 'second_factor' || username.startsWith(APP_ATTEMPT_PREFIX)) return;
    await emit(tx, { type: 'security.sign_in_failed', subject: eventSubject.signIn(username), payload: { username: username.slice(0, 64), ip, reason: outcome, at: at.toISOString() } });
  });
}

/** `security.locked_out`: the wrong password that reached the limit locked `username` out from `ip`. */
export async function recordLockOut(ctx: AppContext, username: string, ip: string, minutes: number): Promise<void> {
  await emit(ctx.db, { type: 'security.locked_out', subject: eventSubject.signIn(username), payload: { username: username.slice(0, 64), ip, minutes, at: new Date().toISOString() } });
}

/** Start of the window that counts for `username`: the lock-out window, cut short by its last success. */
async function windowStart(ctx: AppContext, username: string): Promise<Date> {
  const start = new Date(Date.now() - ctx.config.lockoutMs);
  const [row] = await ctx.db
    .select({ at: max(loginAttempts.at) })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.username, username), eq(loginAttempts.success, true), gt(loginAttempts.at, start)));
  return row?.at ?? start;
}

/**
 * Minutes left of a lock-out, or 0. The lock cannot be aimed at someone else, so wrong passwords
 * count per source: an untrusted browser is locked after `lockoutAfterFailures` wrong passwords
 * for the username from its address; a browser holding the username's trust token only by wrong
 * passwords from trusted browsers (a stolen token), never by strangers'. Inside the window, cut
 * short by the username's last success; the lock lifts when the oldest of those leaves it.
 * Refused attempts while locked are not password checks and do not extend the lock.
 */
export async function lockedMinutes(ctx: AppContext, username: string, ip: string, trusted: boolean): Promise<number> {
  const since = await windowStart(ctx, username);
  const source = trusted ? eq(loginAttempts.trusted, true) : and(eq(loginAttempts.trusted, false), eq(loginAttempts.ip, ip));
  const [nth] = await ctx.db
    .select({ at: loginAttempts.at })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.username, username), inArray(loginAttempts.reason, ['wrong_password', 'wrong_code']), source, gt(loginAttempts.at, since)))
    .orderBy(desc(loginAttempts.at))
    .limit(1)
    .offset(Math.max(ctx.config.lockoutAfterFailures - 1, 0));
  if (!nth) return 0;
  const left = nth.at.getTime() + ctx.config.lockoutMs - Date.now();
  return left > 0 ? Math.max(1, Math.ceil(left / 60_000)) : 0;
}

/**
 * Failures that took a check to reach: a wrong password, or a right one on an account that may
 * not sign in. Refusals before any check (captcha missing or wrong, locked) are free to produce
 * and do not count.
 */
const checkedFailure = inArray(loginAttempts.reason, ['wrong_password', 'wrong_code', 'pending', 'disabled']);

/**
 * The captcha level a sign-in needs: 0 below `captchaAfterFailures` failures for the username
 * (since its last success, from anywhere) and from the address (any staff username: one address
 * spraying many accounts), else 1 plus the failures beyond it. The proof of work costs more with
 * each level (captcha.service.ts). App sign-ins share the table under APP_ATTEMPT_PREFIX and are
 * not counted: the app has its own defences, and an app user mistyping a password on the office
 * network must not put a captcha in front of the staff there.
 */
export async function captchaLevel(ctx: AppContext, username: string, ip: string): Promise<number> {
  const since = await windowStart(ctx, username);
  const [byUser] = username
    ? await ctx.db
        .select({ n: count() })
        .from(loginAttempts)
        .where(and(eq(loginAttempts.username, username), checkedFailure, gt(loginAttempts.at, since)))
    : [{ n: 0 }];
  const [byIp] = await ctx.db
    .select({ n: count() })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.ip, ip), checkedFailure, notLike(loginAttempts.username, `${APP_ATTEMPT_PREFIX}%`), gt(loginAttempts.at, new Date(Date.now() - ctx.config.lockoutMs))));
  const failures = Math.max(byUser?.n ?? 0, byIp?.n ?? 0);
  return failures >= ctx.config.captchaAfterFailures ? failures - ctx.config.captchaAfterFailures + 1 : 0;
}

/**
 * Attempts only matter inside the lock-out window (the system log keeps the sign-in history), so
 * older rows are deleted; a day's margin keeps them for anyone looking into an incident.
 */
export async function pruneAttempts(ctx: AppContext): Promise<void> {
  const keepMs = Math.max(ctx.config.lockoutMs, 86_400_000);
  await ctx.db.delete(loginAttempts).where(lt(loginAttempts.at, new Date(Date.now() - keepMs)));
  await pruneFormHits(ctx);
}
