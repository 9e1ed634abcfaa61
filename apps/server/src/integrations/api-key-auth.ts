import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { API_KEY_PREFIX, apiKeyAllowed, apiKeyScopeOf, type EndpointDef } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { AppError } from '../http/envelope.ts';
import type { Principal } from '../http/auth.ts';
import { requestMeta } from '../http/request-meta.ts';
import { countHit } from '../rate-limit/shared-store.ts';
import { apiKeys } from './integrations.sql.ts';

/** `last_used_at` and `last_used_ip` are written at most this often per key. */
const LAST_USED_EVERY_MS = 60_000;
const RATE_WINDOW_MS = 60_000;

/** The stored form of a key: it is 32 random bytes, so a plain SHA-256 cannot be searched backwards. */
export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** Whether a bearer credential is an API key rather than a session token. */
export const isApiKeyHeader = (authorization: string | undefined) => !!authorization?.startsWith(`Bearer ${API_KEY_PREFIX}`);

/** The name a key's calls carry in the system log. */
export const apiKeyActor = (prefix: string) => `api-key:${prefix}`;

export type ApiKeyGuard = (request: FastifyRequest, reply: FastifyReply, def: Partial<Pick<EndpointDef, 'access' | 'method' | 'stepUp'>>) => Promise<Principal>;

/**
 * Authenticates `Authorization: Bearer mwl_…` on a staff endpoint. The key is looked up on every
 * call (one indexed read), so a revoked or expired key is refused at once on every node. Then its
 * own rate limit (API_KEY_RATE_LIMIT per minute, counted in the database for all nodes), then the
 * endpoint: never one a key may not use (step-up, staff and integration management, a person's own
 * account), and only with the endpoint's scope.
 */
export function createApiKeyGuard(db: Db, opts: { ratePerMinute: number }): ApiKeyGuard {
  const lastWritten = new Map<number, number>();
  return async (request, reply, def) => {
    const key = request.headers.authorization!.slice('Bearer '.length).trim();
    const now = new Date();
    const [row] = await db
      .select({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix, scopes: apiKeys.scopes, createdBy: apiKeys.createdBy })
      .from(apiKeys)
      .where(and(eq(apiKeys.keyHash, hashApiKey(key)), isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now))))
      .limit(1);
    if (!row) throw new AppError('NOT_SIGNED_IN');
    const hits = await countHit(db, `api-key ${row.id}`, RATE_WINDOW_MS, now);
    if (hits.current > opts.ratePerMinute) {
      void reply.header('retry-after', String(Math.max(1, Math.ceil(hits.ttl / 1000))));
      throw new AppError('API_KEY_RATE_LIMITED');
    }
    await noteUse(db, lastWritten, row.id, requestMeta(request).ip, now);
    const principal: Principal = {
      id: row.createdBy ?? 0,
      username: apiKeyActor(row.prefix),
      name: row.name,
      // A key acts with an administrator's rights, narrowed to its scopes below.
      role: 'admin',
      sessionId: `api-key:${row.id}`,
      hasFactor: true,
      stepUpAt: null,
      apiKey: { id: row.id, prefix: row.prefix },
    };
    request.principal = principal;
    if (!apiKeyAllowed({ access: def.access ?? { kind: 'staff' }, method: def.method ?? 'GET', stepUp: def.stepUp })) throw new AppError('API_KEY_NOT_ALLOWED');
    const scope = apiKeyScopeOf({ access: def.access!, method: def.method! })!;
    if (!row.scopes.includes(scope)) throw new AppError('API_KEY_SCOPE', { scope });
    return principal;
  };
}

/** Last use, written at most once a minute per key (noted in memory first, so a burst writes once). */
async function noteUse(db: Db, lastWritten: Map<number, number>, id: number, ip: string, now: Date) {
  if (now.getTime() - (lastWritten.get(id) ?? 0) < LAST_USED_EVERY_MS) return;
  lastWritten.set(id, now.getTime());
  if (lastWritten.size > 10_000) lastWritten.delete(lastWritten.keys().next().value!);
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now, lastUsedIp: ip })
    .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`${new Date(now.getTime() - LAST_USED_EVERY_MS).toISOString()}::timestamptz`))));
}
