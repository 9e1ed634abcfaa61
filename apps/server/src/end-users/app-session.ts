import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { and, eq, gt, inArray, isNotNull, isNull, lt, ne, or } from 'drizzle-orm';
import type { AppLoginResult } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { PrincipalCache } from '../auth/principal-cache.ts';
import { AppError } from '../http/envelope.ts';
import { requestMeta } from '../http/request-meta.ts';
import { appSessions, appSpentRefresh, appUsers } from './end-users.sql.ts';

/**
 * App sessions. The access token is a JWT with `typ: 'app'` naming a row of `app_sessions`; the
 * staff guard refuses any token with a `typ`, and this guard refuses any token without
 * `typ: 'app'`, so neither kind of token works on the other's routes. Every request checks the
 * row (through the node's principal cache, which every change to app sessions and users reaches at
 * once: auth/principal-cache.ts), so revoking it (sign-out, password change, disable) ends the token at once.
 */

export interface AppPrincipal {
  id: number;
  email: string;
  name: string;
  country: string;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    appUser?: AppPrincipal;
  }
}

interface AppClaims {
  typ?: string;
  sid?: string;
  sub?: string;
}

const hashRefresh = (token: string) => createHash('sha256').update(token).digest('hex');

function signAccess(app: FastifyInstance, ctx: AppContext, sessionId: string, userId: number) {
  const expiresAt = new Date(Date.now() + ctx.config.appAccessTtlMs);
  const token = app.jwt.sign({ typ: 'app', sid: sessionId, sub: String(userId) }, { expiresIn: Math.ceil(ctx.config.appAccessTtlMs / 1000) });
  return { token, expiresAt };
}

export async function openAppSession(app: FastifyInstance, ctx: AppContext, request: FastifyRequest, userId: number): Promise<AppLoginResult> {
  const refresh = randomBytes(32).toString('base64url');
  const refreshExpires = new Date(Date.now() + ctx.config.appRefreshTtlMs);
  const { ip, userAgent } = requestMeta(request);
  const [row] = await ctx.db
    .insert(appSessions)
    .values({ userId, refreshHash: hashRefresh(refresh), expiresAt: refreshExpires, ip, userAgent })
    .returning({ id: appSessions.id });
  const access = signAccess(app, ctx, row!.id, userId);
  return { access_token: access.token, expires_at: access.expiresAt.toISOString(), refresh_token: refresh, refresh_expires_at: refreshExpires.toISOString() };
}

/** A session ended because its spent refresh token came back. */
export interface ReusedSession {
  sessionId: string;
  userId: number;
  userAgent: string;
  createdAt: Date;
}

/**
 * Trades a live refresh token for a new pair; the old refresh token stops working and is kept as
 * spent. A spent token coming back means two parties hold the session (the app and whoever copied
 * the token, in either order), and the server cannot tell which is which, so the whole session
 * ends: every access token it issued names it, and the revocation reaches every node's cache at
 * once (principal-cache.ts). `onReuse` hears of it, once per session, to tell the owner.
 */
export async function refreshAppSession(
  app: FastifyInstance,
  ctx: AppContext,
  refreshToken: string,
  onReuse: (ended: ReusedSession) => void,
): Promise<{ userId: number; tokens: AppLoginResult }> {
  const refresh = randomBytes(32).toString('base64url');
  const refreshExpires = new Date(Date.now() + ctx.config.appRefreshTtlMs);
  const spent = hashRefresh(refreshToken);
  const row = await ctx.db.transaction(async (tx) => {
    const [rotated] = await tx
      .update(appSessions)
      .set({ refreshHash: hashRefresh(refresh), expiresAt: refreshExpires })
      .where(and(eq(appSessions.refreshHash, spent), isNull(appSessions.revokedAt), gt(appSessions.expiresAt, new Date())))
      .returning({ id: appSessions.id, userId: appSessions.userId });
    if (rotated) await tx.insert(appSpentRefresh).values({ refreshHash: spent, sessionId: rotated.id }).onConflictDoNothing();
    return rotated;
  });
  if (!row) {
    const ended = await endReusedSession(ctx.db, spent);
    if (ended) onReuse(ended);
    throw new AppError('APP_REFRESH_INVALID');
  }
  const [user] = await ctx.db.select({ status: appUsers.status }).from(appUsers).where(eq(appUsers.id, row.userId));
  if (user?.status !== 'active') {
    await revokeAppSession(ctx.db, row.id);
    throw new AppError('APP_REFRESH_INVALID');
  }
  const access = signAccess(app, ctx, row.id, row.userId);
  return {
    userId: row.userId,
    tokens: { access_token: access.token, expires_at: access.expiresAt.toISOString(), refresh_token: refresh, refresh_expires_at: refreshExpires.toISOString() },
  };
}

/** Revokes the live session a spent refresh token belonged to; undefined when there is none (or it had ended already). */
async function endReusedSession(db: Db, spentHash: string): Promise<ReusedSession | undefined> {
  const [owner] = await db.select({ sessionId: appSpentRefresh.sessionId }).from(appSpentRefresh).where(eq(appSpentRefresh.refreshHash, spentHash)).limit(1);
  if (!owner) return undefined;
  const [ended] = await db
    .update(appSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(appSessions.id, owner.sessionId), isNull(appSessions.revokedAt), gt(appSessions.expiresAt, new Date())))
    .returning({ sessionId: appSessions.id, userId: appSessions.userId, userAgent: appSessions.userAgent, createdAt: appSessions.createdAt });
  return ended;
}

/**
 * Spent tokens only matter while they could still have been used: not once their session has
 * ended (refused anyway), nor once a refresh lifetime has passed since they were spent (they had
 * expired by then even unspent).
 */
export async function pruneSpentRefresh(db: Db, refreshTtlMs: number, now = new Date()): Promise<void> {
  const ended = db
    .select({ id: appSessions.id })
    .from(appSessions)
    .where(or(isNotNull(appSessions.revokedAt), lt(appSessions.expiresAt, now)));
  await db.delete(appSpentRefresh).where(or(inArray(appSpentRefresh.sessionId, ended), lt(appSpentRefresh.spentAt, new Date(now.getTime() - refreshTtlMs))));
}

export async function revokeAppSession(db: Db, sessionId: string): Promise<void> {
  await db.update(appSessions).set({ revokedAt: new Date() }).where(and(eq(appSessions.id, sessionId), isNull(appSessions.revokedAt)));
}

/** Ends every session of a user, except `keep` (the one changing the password). */
export async function revokeAppSessions(db: Db, userId: number, keep?: string): Promise<number> {
  const rows = await db
    .update(appSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(appSessions.userId, userId), isNull(appSessions.revokedAt), keep ? ne(appSessions.id, keep) : undefined))
    .returning({ id: appSessions.id });
  return rows.length;
}

/** The onRequest guard of every app endpoint (`ctx.appGuard`). */
export function createAppGuard(app: FastifyInstance, db: Db, cache: PrincipalCache<AppPrincipal>): onRequestAsyncHookHandler {
  return async (request) => {
    const header = request.headers.authorization;
    if (!header?.startsWith('Bearer ')) throw new AppError('NOT_SIGNED_IN');
    let claims: AppClaims;
    try {
      claims = app.jwt.verify<AppClaims>(header.slice(7).trim());
    } catch {
      throw new AppError('NOT_SIGNED_IN');
    }
    const sid = claims.sid;
    if (claims.typ !== 'app' || typeof sid !== 'string' || !/^[0-9a-f-]{36}$/i.test(sid)) throw new AppError('NOT_SIGNED_IN');
    const user = await cache.get(sid, () => loadAppSession(db, sid));
    if (!user) throw new AppError('NOT_SIGNED_IN');
    request.appUser = user;
  };
}

async function loadAppSession(db: Db, sid: string) {
  const [row] = await db
    .select({ id: appUsers.id, email: appUsers.email, name: appUsers.name, country: appUsers.country, expiresAt: appSessions.expiresAt })
    .from(appSessions)
    .innerJoin(appUsers, eq(appUsers.id, appSessions.userId))
    .where(and(eq(appSessions.id, sid), isNull(appSessions.revokedAt), gt(appSessions.expiresAt, new Date()), eq(appUsers.status, 'active')))
    .limit(1);
  if (!row) return undefined;
  const { expiresAt, ...user } = row;
  return { value: { ...user, sessionId: sid }, userId: row.id, expiresAt };
}

/** The signed-in app user inside an app handler. */
export function appUser(request: FastifyRequest): AppPrincipal {
  if (!request.appUser) throw new AppError('NOT_SIGNED_IN');
  return request.appUser;
}
