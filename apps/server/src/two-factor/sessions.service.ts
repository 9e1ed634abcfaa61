import { and, desc, eq, gt, isNull, ne } from 'drizzle-orm';
import { describeUserAgent, type StaffSession } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { sessions } from '../auth/auth.sql.ts';

/** A staff member's live sessions, newest first; `current` marks the one asking. */
export async function listSessions(ctx: AppContext, userId: number, currentSid?: string): Promise<StaffSession[]> {
  const rows = await ctx.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())))
    .orderBy(desc(sessions.lastSeenAt))
    .limit(100);
  return rows.map((s) => ({
    id: s.id,
    device: describeUserAgent(s.userAgent),
    userAgent: s.userAgent,
    ip: s.ip,
    country: s.country,
    createdAt: s.createdAt.toISOString(),
    lastSeenAt: s.lastSeenAt.toISOString(),
    expiresAt: s.expiresAt.toISOString(),
    current: s.id === currentSid,
  }));
}

/**
 * Revokes sessions of one user: one by id, or all but `keep`. The guard reads the session row on
 * every request (http/auth.ts), so a revoked browser is signed out with its very next call.
 */
export async function revokeSessions(ctx: AppContext, userId: number, which: { sid: string } | { keep: string }): Promise<number> {
  const target = 'sid' in which ? eq(sessions.id, which.sid) : ne(sessions.id, which.keep);
  const rows = await ctx.db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), target))
    .returning({ id: sessions.id });
  return rows.length;
}
