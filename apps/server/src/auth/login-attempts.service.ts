import { and, count, desc, eq, gt, lt, max } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { loginAttempts, type LoginOutcome } from './auth.sql.ts';

/**
 * Captcha and lock-out decisions, made from the `login_attempts` rows so every server node agrees.
 * Usernames are compared lower-cased (sign-in is case-insensitive), and unknown usernames are
 * counted exactly like real ones, so neither rule reveals which accounts exist.
 */

export async function recordAttempt(ctx: AppContext, username: string, ip: string, outcome: LoginOutcome): Promise<void> {
  // The application clock, like every other expiry check, so a database on another host cannot skew it.
  await ctx.db.insert(loginAttempts).values({ username, ip, success: outcome === 'ok' || outcome === 'password_reset', reason: outcome, at: new Date() });
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
 * Minutes left of a lock-out, or 0. Locked = at least `lockoutAfterFailures` wrong passwords inside
 * the window; the lock lifts when the oldest of those leaves it. Refused attempts while locked are
 * not password checks and do not extend the lock.
 */
export async function lockedMinutes(ctx: AppContext, username: string): Promise<number> {
  const since = await windowStart(ctx, username);
  const [nth] = await ctx.db
    .select({ at: loginAttempts.at })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.username, username), eq(loginAttempts.reason, 'wrong_password'), gt(loginAttempts.at, since)))
    .orderBy(desc(loginAttempts.at))
    .limit(1)
    .offset(Math.max(ctx.config.lockoutAfterFailures - 1, 0));
  if (!nth) return 0;
  const left = nth.at.getTime() + ctx.config.lockoutMs - Date.now();
  return left > 0 ? Math.max(1, Math.ceil(left / 60_000)) : 0;
}

/**
 * Whether a sign-in must carry a captcha: `captchaAfterFailures` failed attempts for the username
 * (since its last success) or from the IP (any username: one address spraying many accounts).
 */
export async function captchaNeeded(ctx: AppContext, username: string, ip: string): Promise<boolean> {
  const threshold = ctx.config.captchaAfterFailures;
  const since = await windowStart(ctx, username);
  const [byUser] = await ctx.db
    .select({ n: count() })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.username, username), eq(loginAttempts.success, false), gt(loginAttempts.at, since)));
  if ((byUser?.n ?? 0) >= threshold) return true;
  const [byIp] = await ctx.db
    .select({ n: count() })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.ip, ip), eq(loginAttempts.success, false), gt(loginAttempts.at, new Date(Date.now() - ctx.config.lockoutMs))));
  return (byIp?.n ?? 0) >= threshold;
}

/**
 * Attempts only matter inside the lock-out window (the system log keeps the sign-in history), so
 * older rows are deleted; a day's margin keeps them for anyone looking into an incident.
 */
export async function pruneAttempts(ctx: AppContext): Promise<void> {
  const keepMs = Math.max(ctx.config.lockoutMs, 86_400_000);
  await ctx.db.delete(loginAttempts).where(lt(loginAttempts.at, new Date(Date.now() - keepMs)));
}
