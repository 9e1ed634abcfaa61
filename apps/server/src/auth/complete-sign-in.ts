import type { FastifyInstance, FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import type { LoginResult } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { staffUsers, type StaffRow } from '../staff/staff.sql.ts';
import { openSession } from './session.service.ts';
import { issueTrustToken } from './trust-token.ts';

/** Opens the session of a sign-in that passed every check, and audits it. */
export async function completeSignIn(
  app: FastifyInstance,
  ctx: AppContext,
  request: FastifyRequest,
  user: StaffRow,
  remember: boolean,
  detail: Record<string, unknown>,
): Promise<LoginResult> {
  const session = await openSession(app, ctx, request, user.id, remember);
  await ctx.db.update(staffUsers).set({ lastLoginAt: new Date() }).where(eq(staffUsers.id, user.id));
  await ctx.audit(request, {
    action: 'auth.login',
    result: 'success',
    actor: { id: user.id, name: user.username },
    targetType: 'staff',
    targetId: user.id,
    targetName: user.username,
    detail: { remember, ...detail },
  });
  return {
    access_token: session.accessToken,
    expires_at: session.expiresAt.toISOString(),
    security_token: issueTrustToken(app, user.username.toLowerCase()),
  };
}
