import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, desc, eq, gt, isNull, lt, lte, sql } from 'drizzle-orm';
import {
  APP_CODE_TTL_MINUTES,
  APP_DELETION_GRACE_DAYS,
  checkPassword,
  type AppProfile,
  type AppProfileBody,
  type AppRegisterBody,
  type AppRegisterResult,
  type Locale,
} from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { isUniqueViolation } from '../db/helpers.ts';
import { APP_ATTEMPT_PREFIX, lockedMinutes, recordAttempt } from '../auth/login-attempts.service.ts';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import { AppError } from '../http/envelope.ts';
import { openAppSession, revokeAppSessions } from './app-session.ts';
import { appCodes, appUsers, type AppUserRow } from './end-users.sql.ts';
import { isCountry, locate } from './geo.ts';
import { activateRegistration } from './end-user-events.ts';

/**
 * Wrong tries that burn a mailed code; with the per-mailbox limits on new codes
 * (app-form-limits.ts, where the arithmetic is) a code cannot be guessed in its lifetime.
 */
export const CODE_MAX_ATTEMPTS = 5;
const DAY_MS = 86_400_000;

/** Sign-in attempts share the staff lock-out table under a prefix no staff username can have (they never count toward the staff captcha). */
export const attemptKey = (email: string) => `${APP_ATTEMPT_PREFIX}${email.toLowerCase()}`;

export async function findUserByEmail(ctx: AppContext, email: string): Promise<AppUserRow | undefined> {
  const [row] = await ctx.db.select().from(appUsers).where(eq(appUsers.email, email.toLowerCase())).limit(1);
  return row;
}

export async function getUser(ctx: AppContext, id: number): Promise<AppUserRow> {
  const [row] = await ctx.db.select().from(appUsers).where(eq(appUsers.id, id)).limit(1);
  if (!row) throw new AppError('END_USER_NOT_FOUND');
  return row;
}

export function toProfile(row: AppUserRow): AppProfile {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    phone: row.phone,
    country: row.country,
    city: row.city,
    home: row.homeLat === null || row.homeLng === null ? null : { lat: row.homeLat, lng: row.homeLng },
    locale: row.locale as Locale,
    timeZone: row.timeZone,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    deletionAt: row.deletionAt?.toISOString() ?? null,
  };
}

function requirePolicy(password: string, email: string) {
  // The e-mail's local part plays the username's role in the shared policy.
  if (!checkPassword(password, email.split('@')[0] ?? '')) throw new AppError('WEAK_PASSWORD');
}

function requireCountry(country: string) {
  if (!isCountry(country)) throw new AppError('APP_COUNTRY_UNKNOWN', { country });
}

// ---------------------------------------------------------------- mailed codes

const codeHash = (ctx: AppContext, userId: number, purpose: string, code: string) =>
  createHmac('sha256', ctx.config.jwtSecret).update(`${userId}:${purpose}:${code}`).digest('hex');

/** A fresh 6-digit code for the user (older ones of the same purpose stop working); only its HMAC is kept. */
export async function issueCode(ctx: AppContext, userId: number, purpose: 'verify' | 'reset') {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(Date.now() + APP_CODE_TTL_MINUTES * 60_000);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(appCodes).where(and(eq(appCodes.userId, userId), eq(appCodes.purpose, purpose)));
    await tx.insert(appCodes).values({ userId, purpose, codeHash: codeHash(ctx, userId, purpose, code), expiresAt });
  });
  return { code, expiresAt };
}

/**
 * Uses up the live code of `purpose`, or counts a wrong try. Each try first claims one of the
 * code's CODE_MAX_ATTEMPTS tries in one statement, so simultaneous guesses on any number of
 * nodes cannot get more tries than that; a wrong try that takes the last one kills the code.
 */
async function consumeCode(ctx: AppContext, userId: number, purpose: 'verify' | 'reset', code: string): Promise<void> {
  const now = new Date();
  const [row] = await ctx.db
    .select({ id: appCodes.id, codeHash: appCodes.codeHash })
    .from(appCodes)
    .where(and(eq(appCodes.userId, userId), eq(appCodes.purpose, purpose), isNull(appCodes.usedAt), gt(appCodes.expiresAt, now)))
    .orderBy(desc(appCodes.id))
    .limit(1);
  if (!row) throw new AppError('APP_CODE_INVALID');
  const live = and(eq(appCodes.id, row.id), isNull(appCodes.usedAt), lt(appCodes.attempts, CODE_MAX_ATTEMPTS));
  const [claimed] = await ctx.db
    .update(appCodes)
    .set({ attempts: sql`${appCodes.attempts} + 1` })
    .where(live)
    .returning({ attempts: appCodes.attempts });
  if (!claimed) throw new AppError('APP_CODE_INVALID');
  const expected = Buffer.from(row.codeHash, 'hex');
  const given = Buffer.from(codeHash(ctx, userId, purpose, code), 'hex');
  if (!timingSafeEqual(expected, given)) {
    if (claimed.attempts >= CODE_MAX_ATTEMPTS) await ctx.db.update(appCodes).set({ usedAt: new Date() }).where(and(eq(appCodes.id, row.id), isNull(appCodes.usedAt)));
    throw new AppError('APP_CODE_INVALID');
  }
  const used = await ctx.db
    .update(appCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(appCodes.id, row.id), isNull(appCodes.usedAt)))
    .returning({ id: appCodes.id });
  // Two simultaneous right answers: one uses the code, the other finds it used.
  if (used.length === 0) throw new AppError('APP_CODE_INVALID');
}

type MailedUser = Pick<AppUserRow, 'id' | 'email' | 'name' | 'locale'>;

function sendCode(ctx: AppContext, user: MailedUser, purpose: 'verify' | 'reset', code: string) {
  return ctx.mailer.send({
    to: user.email,
    template: purpose === 'verify' ? 'app-verify' : 'app-password-reset',
    params: { name: user.name, code, minutes: APP_CODE_TTL_MINUTES },
    locale: user.locale as Locale,
  });
}

export async function mailCode(ctx: AppContext, user: MailedUser, purpose: 'verify' | 'reset') {
  const { code, expiresAt } = await issueCode(ctx, user.id, purpose);
  await sendCode(ctx, user, purpose, code);
  return expiresAt;
}

// ---------------------------------------------------------------- sign-up and sign-in

export interface Registration {
  result: AppRegisterResult;
  /** The account made, or the one that had the e-mail already. */
  userId: number;
  existing: boolean;
  /** The mail to send once the answer is out: the code, or the owner's warning. */
  mail: () => Promise<unknown>;
}

/**
 * Sign-up. An e-mail that has an account already gets the very same answer (its owner is mailed
 * that someone tried to register it), so the form cannot be used to find accounts. The work is
 * alike too: the password is hashed either way (that is most of the time), and the mail goes out
 * after the answer in both cases; what is left differs by a few queries, and the per-mailbox
 * limit allows only a handful of tries a day per e-mail, far too few to measure that.
 */
export async function register(ctx: AppContext, body: AppRegisterBody, limit: () => Promise<void>): Promise<Registration> {
  const email = body.email.toLowerCase();
  requireCountry(body.country);
  requirePolicy(body.password, email);
  // After the checks of the form itself, so a user correcting a weak password keeps their quota.
  await limit();
  const passwordHash = await hashPassword(body.password, ctx.config.passwordHashCost);
  const existing = await findUserByEmail(ctx, email);
  if (existing) return alreadyRegistered(ctx, existing);
  let row: AppUserRow;
  try {
    [row] = (await ctx.db
      .insert(appUsers)
      .values({ email, passwordHash, name: body.name, country: body.country, city: body.city ?? '', phone: body.phone ?? '', locale: body.locale, timeZone: body.timeZone })
      .returning()) as [AppUserRow];
  } catch (err) {
    // Two simultaneous sign-ups of one e-mail: the unique index lets one in, the other is the "existing" case.
    const raced = isUniqueViolation(err) ? await findUserByEmail(ctx, email) : undefined;
    if (raced) return alreadyRegistered(ctx, raced);
    throw err;
  }
  const { code, expiresAt } = await issueCode(ctx, row.id, 'verify');
  return {
    userId: row.id,
    existing: false,
    result: { email, status: 'unverified', codeExpiresAt: expiresAt.toISOString() },
    mail: () => sendCode(ctx, row, 'verify', code),
  };
}

function alreadyRegistered(ctx: AppContext, user: AppUserRow): Registration {
  const codeExpiresAt = new Date(Date.now() + APP_CODE_TTL_MINUTES * 60_000);
  return {
    userId: user.id,
    existing: true,
    result: { email: user.email, status: 'unverified', codeExpiresAt: codeExpiresAt.toISOString() },
    mail: () => ctx.mailer.send({ to: user.email, template: 'app-register-existing', params: { name: user.name }, locale: user.locale as Locale }),
  };
}

/**
 * An account the server makes for itself (the `npm start` demo's owners): unverified like a
 * sign-up, but without the public form's limits and without a mail (support confirms it). An
 * e-mail that has an account already answers that account.
 */
export async function createAppAccount(ctx: AppContext, body: AppRegisterBody): Promise<{ id: number; created: boolean }> {
  const email = body.email.toLowerCase();
  requireCountry(body.country);
  requirePolicy(body.password, email);
  const existing = await findUserByEmail(ctx, email);
  if (existing) return { id: existing.id, created: false };
  const [row] = await ctx.db
    .insert(appUsers)
    .values({ email, passwordHash: await hashPassword(body.password, ctx.config.passwordHashCost), name: body.name, country: body.country, city: body.city ?? '', phone: body.phone ?? '', locale: body.locale, timeZone: body.timeZone })
    .onConflictDoNothing()
    .returning({ id: appUsers.id });
  if (row) return { id: row.id, created: true };
  return { id: (await findUserByEmail(ctx, email))!.id, created: false };
}

export async function verify(ctx: AppContext, email: string, code: string): Promise<AppUserRow> {
  const user = await findUserByEmail(ctx, email);
  if (!user || user.status !== 'unverified') throw new AppError('APP_CODE_INVALID');
  await consumeCode(ctx, user.id, 'verify', code);
  await activateRegistration(ctx.db, user.id);
  return user;
}

export interface LoginOutcome {
  user: AppUserRow;
  tokens: Awaited<ReturnType<typeof openAppSession>>;
  /** A pending deletion this sign-in cancelled. */
  cancelledDeletion: boolean;
}

export async function login(app: FastifyInstance, ctx: AppContext, request: FastifyRequest, email: string, password: string): Promise<LoginOutcome> {
  const key = attemptKey(email);
  const minutes = await lockedMinutes(ctx, key, request.ip, false);
  if (minutes > 0) {
    await recordAttempt(ctx, key, request.ip, 'locked');
    throw new AppError('ACCOUNT_LOCKED', { minutes });
  }
  const user = await findUserByEmail(ctx, email);
  if (!(await verifyPassword(user?.passwordHash, password, ctx.config.passwordHashCost)) || !user) {
    await recordAttempt(ctx, key, request.ip, 'wrong_password');
    throw new AppError('APP_LOGIN_FAILED');
  }
  if (user.status === 'unverified') {
    await recordAttempt(ctx, key, request.ip, 'pending');
    throw new AppError('APP_NOT_VERIFIED');
  }
  if (user.status === 'disabled') {
    await recordAttempt(ctx, key, request.ip, 'disabled');
    throw new AppError('APP_ACCOUNT_DISABLED');
  }
  await recordAttempt(ctx, key, request.ip, 'ok');
  const cancelledDeletion = user.status === 'deletion_pending';
  const now = new Date();
  await ctx.db.update(appUsers).set({ status: 'active', deletionAt: null, lastLoginAt: now }).where(eq(appUsers.id, user.id));
  const tokens = await openAppSession(app, ctx, request, user.id);
  return { user, tokens, cancelledDeletion };
}

/** Mails a reset code when the account exists and is not disabled; the caller never learns which. */
export async function forgotPassword(ctx: AppContext, email: string): Promise<AppUserRow | undefined> {
  const user = await findUserByEmail(ctx, email);
  if (!user || user.status === 'disabled') return undefined;
  await mailCode(ctx, user, 'reset');
  return user;
}

/** A new password with the mailed code; the code also proves the e-mail, so it verifies an unverified account. */
export async function resetPassword(ctx: AppContext, email: string, code: string, newPassword: string): Promise<AppUserRow> {
  const user = await findUserByEmail(ctx, email);
  if (!user || user.status === 'disabled') throw new AppError('APP_CODE_INVALID');
  requirePolicy(newPassword, user.email);
  await consumeCode(ctx, user.id, 'reset', code);
  await ctx.db
    .update(appUsers)
    .set({ passwordHash: await hashPassword(newPassword, ctx.config.passwordHashCost), status: user.status === 'unverified' ? 'active' : user.status, updatedAt: new Date() })
    .where(eq(appUsers.id, user.id));
  await revokeAppSessions(ctx.db, user.id);
  await recordAttempt(ctx, attemptKey(user.email), '', 'password_reset');
  return user;
}

// ---------------------------------------------------------------- the signed-in user

export async function updateProfile(ctx: AppContext, userId: number, body: AppProfileBody): Promise<{ before: AppProfile; after: AppProfile }> {
  const before = toProfile(await getUser(ctx, userId));
  const set: Partial<typeof appUsers.$inferInsert> = { updatedAt: new Date() };
  if (body.name !== undefined) set.name = body.name;
  if (body.phone !== undefined) set.phone = body.phone;
  if (body.locale !== undefined) set.locale = body.locale;
  if (body.timeZone !== undefined) set.timeZone = body.timeZone;
  if (body.home !== undefined) {
    set.homeLat = body.home?.lat ?? null;
    set.homeLng = body.home?.lng ?? null;
    if (body.home && body.country === undefined && body.city === undefined) {
      const where = locate(body.home.lat, body.home.lng);
      if (where.country) set.country = where.country;
      set.city = where.city;
    }
  }
  if (body.country !== undefined) {
    requireCountry(body.country);
    set.country = body.country;
  }
  if (body.city !== undefined) set.city = body.city;
  const [row] = await ctx.db.update(appUsers).set(set).where(eq(appUsers.id, userId)).returning();
  return { before, after: toProfile(row!) };
}

export async function changePassword(ctx: AppContext, userId: number, sessionId: string, oldPassword: string, newPassword: string) {
  const user = await getUser(ctx, userId);
  if (!(await verifyPassword(user.passwordHash, oldPassword, ctx.config.passwordHashCost))) throw new AppError('WRONG_OLD_PASSWORD');
  if (oldPassword === newPassword) throw new AppError('SAME_PASSWORD');
  requirePolicy(newPassword, user.email);
  await ctx.db.update(appUsers).set({ passwordHash: await hashPassword(newPassword, ctx.config.passwordHashCost), updatedAt: new Date() }).where(eq(appUsers.id, userId));
  return revokeAppSessions(ctx.db, userId, sessionId);
}

/** Schedules the erasure; every session ends, and signing in again within the grace period cancels it. */
export async function requestDeletion(ctx: AppContext, userId: number, password: string, now = new Date()): Promise<Date> {
  const user = await getUser(ctx, userId);
  if (!(await verifyPassword(user.passwordHash, password, ctx.config.passwordHashCost))) throw new AppError('WRONG_OLD_PASSWORD');
  const deletionAt = new Date(now.getTime() + APP_DELETION_GRACE_DAYS * DAY_MS);
  await ctx.db.update(appUsers).set({ status: 'deletion_pending', deletionAt, updatedAt: now }).where(eq(appUsers.id, userId));
  await revokeAppSessions(ctx.db, userId);
  return deletionAt;
}

/** Accounts whose grace period is over at `now`. */
export async function dueDeletions(ctx: AppContext, now: Date, limit = 200): Promise<AppUserRow[]> {
  return ctx.db
    .select()
    .from(appUsers)
    .where(and(eq(appUsers.status, 'deletion_pending'), lte(appUsers.deletionAt, now)))
    .limit(limit);
}
