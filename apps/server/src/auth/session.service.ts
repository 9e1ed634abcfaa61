import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { requestMeta } from '../http/request-meta.ts';
import { sessions } from './auth.sql.ts';

/**
 * The caller's country as a load balancer or CDN states it (Cloudflare's CF-IPCountry, or
 * X-Country-Code), believed only behind a trusted proxy. There is no offline IP database here.
 */
function countryOf(ctx: AppContext, request: FastifyRequest): string {
  if (!ctx.config.trustProxy) return '';
  const raw = request.headers['cf-ipcountry'] ?? request.headers['x-country-code'];
  const code = String(Array.isArray(raw) ? raw[0] : (raw ?? '')).toUpperCase();
  return /^[A-Z]{2}$/.test(code) ? code : '';
}

/**
 * Opens a session row and signs the access token that names it. The guard checks the row on
 * every request, so revoking the row kills the token at once on every server node.
 */
export async function openSession(app: FastifyInstance, ctx: AppContext, request: FastifyRequest, userId: number, remember: boolean, opts: { system?: boolean } = {}) {
  const ttlMs = remember ? ctx.config.rememberTtlMs : ctx.config.sessionTtlMs;
  const now = new Date();
  const expiresAt = new Date(now.getTime() + ttlMs);
  const { ip, userAgent } = requestMeta(request);
  const system = opts.system ?? false;
  // A sign-in is a confirmation: the password (and the second factor, when the account has one)
  // was just given, so step-up actions work for STEP_UP_MINUTES without asking again.
  const stepUpAt = system ? null : now;
  const [row] = await ctx.db
    .insert(sessions)
    .values({ userId, expiresAt, remember, ip, userAgent, country: countryOf(ctx, request), stepUpAt, lastSeenAt: now, system })
    .returning({ id: sessions.id });
  const accessToken = app.jwt.sign({ sid: row!.id, sub: String(userId) }, { expiresIn: Math.ceil(ttlMs / 1000) });
  return { accessToken, expiresAt };
}

export async function revokeSession(ctx: AppContext, sessionId: string): Promise<void> {
  await ctx.db.update(sessions).set({ revokedAt: new Date() }).where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Signs the user out everywhere, except in the session `keep` when given (the one changing the password). */
export async function revokeUserSessions(db: Db, userId: number, keep?: string): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), keep ? ne(sessions.id, keep) : undefined))
    .returning({ id: sessions.id });
  return rows.length;
}
