import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { canAccess, type EndpointDef, type ErrorKey, type Resource, type Role } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { sessions } from '../auth/auth.sql.ts';
import { notSignedInData } from '../auth/trust-token.ts';
import { staffUsers } from '../staff/staff.sql.ts';
import { staffFactors } from '../two-factor/two-factor.sql.ts';
import { AppError } from './envelope.ts';
import type { PrincipalCache } from '../auth/principal-cache.ts';
import { isApiKeyHeader, type ApiKeyGuard } from '../integrations/api-key-auth.ts';

export interface Principal {
  id: number;
  username: string;
  name: string;
  role: Role;
  sessionId: string;
  /** The server acting for itself (SYSTEM_ACTOR): audited and recorded as "system", not as a person;
   * with no person behind it, it is not held to the enrolment or step-up rules. */
  system?: boolean;
  /** Has at least one active second factor. */
  hasFactor: boolean;
  /** Last second-factor confirmation or sign-in of this session (step-up, two-factor/step-up.service.ts). */
  stepUpAt: Date | null;
  /** A call made with an API key (integrations/api-key-auth.ts): no person, only the key's scopes. */
  apiKey?: { id: number; prefix: string };
}

/** The name the system log and created-by fields give to what the server does on its own. */
export const SYSTEM_ACTOR = 'system';

/** Who may do what beyond the role: the endpoint's second-factor rules (contract `enrolmentAllowed`, `stepUp`). */
export interface FactorRules {
  /** Roles that must have a second factor (REQUIRE_2FA_ROLES). */
  require2faRoles: readonly Role[];
  stepUpMs: number;
}

/** Why a caller may not use an endpoint for want of a second factor or a recent confirmation, or undefined. */
export function factorRefusal(who: Principal, def: Pick<EndpointDef, 'enrolmentAllowed' | 'stepUp'>, rules: FactorRules): ErrorKey | undefined {
  // The server's own short-lived system session (the demo fleet registering its mowers, which may
  // rotate a lost device secret) has no person behind it to confirm anything.
  if (who.system) return undefined;
  // A key never reaches a step-up endpoint (the key guard refuses them) and has no person to enrol.
  if (who.apiKey) return undefined;
  if (!who.hasFactor && rules.require2faRoles.includes(who.role) && !def.enrolmentAllowed) return 'TWO_FACTOR_ENROL_REQUIRED';
  if (def.stepUp && !(who.stepUpAt && Date.now() - who.stepUpAt.getTime() < rules.stepUpMs)) return 'STEP_UP_REQUIRED';
  return undefined;
}

/** `last_seen_at` is written at most this often per session: a busy console does not rewrite its row on every call. */
const LAST_SEEN_EVERY_MS = 60_000;

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

/** Reads the caller of a request (`Authorization: Bearer <access_token>`): undefined when not a live staff session. */
export type PrincipalReader = (request: Pick<FastifyRequest, 'headers'>) => Promise<Principal | undefined>;

/** A live session's principal, and when its `last_seen_at` was last written (kept with it in the cache). */
export interface SessionPrincipal {
  principal: Principal;
  lastSeenAt: Date;
}

/**
 * Checks the token, then that its session is still alive: in the node's principal cache
 * (SESSION_CACHE_MS, auth/principal-cache.ts), else in the database.
 */
export function createPrincipalReader(app: FastifyInstance, db: Db, cache: PrincipalCache<SessionPrincipal>): PrincipalReader {
  return async (request) => {
    const header = request.headers.authorization;
    if (!header?.startsWith('Bearer ')) return undefined;
    let claims: AccessClaims;
    try {
      claims = app.jwt.verify<AccessClaims>(header.slice(7).trim());
    } catch {
      return undefined;
    }
    if (claims.typ !== undefined) return undefined;
    const sid = claims.sid;
    if (typeof sid !== 'string' || !/^[0-9a-f-]{36}$/i.test(sid)) return undefined;
    const found = await cache.get(sid, () => loadSession(db, sid));
    if (!found) return undefined;
    const now = new Date();
    if (now.getTime() - found.lastSeenAt.getTime() > LAST_SEEN_EVERY_MS) {
      // Noted in the cached entry first, so concurrent requests do not all write it.
      found.lastSeenAt = now;
      await db
        .update(sessions)
        .set({ lastSeenAt: now })
        .where(and(eq(sessions.id, sid), lt(sessions.lastSeenAt, new Date(now.getTime() - LAST_SEEN_EVERY_MS))));
    }
    return found.principal;
  };
}

async function loadSession(db: Db, sid: string) {
  const [row] = await db
    .select({
      id: staffUsers.id,
      username: staffUsers.username,
      name: staffUsers.name,
      role: staffUsers.role,
      system: sessions.system,
      stepUpAt: sessions.stepUpAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      hasFactor: sql<boolean>`exists (select 1 from ${staffFactors} where ${staffFactors.userId} = ${staffUsers.id} and ${staffFactors.activatedAt} is not null)`,
    })
    .from(sessions)
    .innerJoin(staffUsers, eq(staffUsers.id, sessions.userId))
    .where(and(eq(sessions.id, sid), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date()), eq(staffUsers.status, 'active')))
    .limit(1);
  if (!row) return undefined;
  const { lastSeenAt, expiresAt, ...who } = row;
  const principal: Principal = { ...who, hasFactor: Boolean(row.hasFactor), sessionId: sid };
  // A system session borrows an administrator's rights, never their name.
  const value = { principal: row.system ? { ...principal, username: SYSTEM_ACTOR, name: 'System' } : principal, lastSeenAt };
  return { value, userId: row.id, expiresAt };
}

/**
 * The guard every protected route uses: signed in (else 401, code 50008, carrying a renewed
 * `security_token` when the browser sent a valid one), and when a resource is named, the role
 * must be allowed by the shared `canAccess` rule (else 403). Then the endpoint's second-factor
 * rules: a role that must have a factor and has none reaches only the enrolment endpoints, and a
 * step-up endpoint needs a recent confirmation (`factorRefusal`).
 */
export function createGuard(app: FastifyInstance, principalOf: PrincipalReader, rules: FactorRules, apiKeyGuard?: ApiKeyGuard) {
  return (resource?: Resource, def: Pick<EndpointDef, 'enrolmentAllowed' | 'stepUp'> & Partial<Pick<EndpointDef, 'access' | 'method'>> = {}): preHandlerAsyncHookHandler =>
    async (request, reply) => {
      // Another system's API key: its own authentication, rate limit and scopes.
      if (apiKeyGuard && isApiKeyHeader(request.headers.authorization)) {
        await apiKeyGuard(request, reply, { access: def.access ?? (resource ? { kind: 'staff', resource } : { kind: 'staff' }), method: def.method, stepUp: def.stepUp });
        return;
      }
      const principal = await principalOf(request);
      if (!principal) throw new AppError('NOT_SIGNED_IN', {}, notSignedInData(app, request));
      request.principal = principal;
      if (resource && !canAccess(principal.role, resource)) throw new AppError('FORBIDDEN');
      const refusal = factorRefusal(principal, def, rules);
      if (refusal) throw new AppError(refusal);
    };
}
export type Guard = ReturnType<typeof createGuard>;

/** The signed-in caller inside a guarded handler. */
export function principal(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('NOT_SIGNED_IN');
  return request.principal;
}
