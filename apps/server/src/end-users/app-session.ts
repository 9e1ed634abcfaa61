import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import type { AppLoginResult } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { PrincipalCache } from '../auth/principal-cache.ts';
import { AppError } from '../http/envelope.ts';
import { requestMeta } from '../http/request-meta.ts';
import { appSessions, appUsers } from './end-users.sql.ts';

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

/** Trades a live refresh token for a new pair; the old refresh token stops working. */
export async function refreshAppSession(app: FastifyInstance, ctx: AppContext, refreshToken: string): Promise<{ userId: number; tokens: AppLoginResult }> {
  const refresh = randomBytes(32).toString('base64url');
  const refreshExpires = new Date(Date.now() + ctx.config.appRefreshTtlMs);
  const [row] = await ctx.db
    .update(appSessions)
    .set({ refreshHash: hashRefresh(refresh), expiresAt: refreshExpires })
    .where(and(eq(appSessions.refreshHash, hashRefresh(refreshToken)), isNull(appSessions.revokedAt), gt(appSessions.expiresAt, new Date())))
    .returning({ id: appSessions.id, userId: appSessions.userId });
  if (!row) throw new AppError('APP_REFRESH_INVALID');
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
