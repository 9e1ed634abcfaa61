import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { canAccess, type Resource, type Role } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { sessions } from '../auth/auth.sql.ts';
import { notSignedInData } from '../auth/trust-token.ts';
import { staffUsers } from '../staff/staff.sql.ts';
import { AppError } from './envelope.ts';

export interface Principal {
  id: number;
  username: string;
  name: string;
  role: Role;
  sessionId: string;
  /** The server acting for itself (SYSTEM_ACTOR): audited and recorded as "system", not as a person. */
  system?: boolean;
}

/** The name the system log and created-by fields give to what the server does on its own. */
export const SYSTEM_ACTOR = 'system';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

interface AccessClaims {
  sid: string;
  sub: string;
  /** 'app' on mobile-app tokens: never a staff credential (end-users/app-session.ts). */
  typ?: string;
}

/** Reads `Authorization: Bearer <access_token>` and checks the session is still alive in the database. */
export async function principalOf(app: FastifyInstance, db: Db, request: FastifyRequest): Promise<Principal | undefined> {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return undefined;
  let claims: AccessClaims;
  try {
    claims = app.jwt.verify<AccessClaims>(header.slice(7).trim());
  } catch {
    return undefined;
  }
  if (claims.typ !== undefined) return undefined;
  if (typeof claims.sid !== 'string' || !/^[0-9a-f-]{36}$/i.test(claims.sid)) return undefined;
  const [row] = await db
    .select({ id: staffUsers.id, username: staffUsers.username, name: staffUsers.name, role: staffUsers.role, system: sessions.system })
    .from(sessions)
    .innerJoin(staffUsers, eq(staffUsers.id, sessions.userId))
    .where(
      and(eq(sessions.id, claims.sid), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date()), eq(staffUsers.status, 'active')),
    )
    .limit(1);
  if (!row) return undefined;
  // A system session borrows an administrator's rights, never their name.
  return row.system ? { ...row, username: SYSTEM_ACTOR, name: 'System', sessionId: claims.sid } : { ...row, system: false, sessionId: claims.sid };
}

/**
 * The guard every protected route uses: signed in (else 401, code 50008, carrying a renewed
 * `security_token` when the browser sent a valid one), and when a resource is named, the role
 * must be allowed by the shared `canAccess` rule (else 403).
 */
export function createGuard(app: FastifyInstance, db: Db) {
  return (resource?: Resource): preHandlerAsyncHookHandler =>
    async (request) => {
      const principal = await principalOf(app, db, request);
      if (!principal) throw new AppError('NOT_SIGNED_IN', {}, notSignedInData(app, request));
      request.principal = principal;
      if (resource && !canAccess(principal.role, resource)) throw new AppError('FORBIDDEN');
    };
}
export type Guard = ReturnType<typeof createGuard>;

/** The signed-in caller inside a guarded handler. */
export function principal(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('NOT_SIGNED_IN');
  return request.principal;
}
