import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { requestMeta } from '../http/request-meta.ts';
import { sessions } from './auth.sql.ts';

/**
 * Opens a session row and signs the access token that names it. The guard checks the row on
 * every request, so revoking the row kills the token at once on every server node.
 */
export async function openSession(app: FastifyInstance, ctx: AppContext, request: FastifyRequest, userId: number, remember: boolean, opts: { system?: boolean } = {}) {
  const ttlMs = remember ? ctx.config.rememberTtlMs : ctx.config.sessionTtlMs;
  const expiresAt = new Date(Date.now() + ttlMs);
  const { ip, userAgent } = requestMeta(request);
  const [row] = await ctx.db.insert(sessions).values({ userId, expiresAt, remember, ip, userAgent, system: opts.system ?? false }).returning({ id: sessions.id });
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
