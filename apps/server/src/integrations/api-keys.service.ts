import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { API_KEY_PREFIX, API_KEY_VISIBLE, type ApiKey, type ApiKeyCreateBody, type Page, type PageQuery } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { AppError } from '../http/envelope.ts';
import type { Principal } from '../http/auth.ts';
import { hashApiKey } from './api-key-auth.ts';
import { apiKeys } from './integrations.sql.ts';

/** A new key: `mwl_` and 32 random bytes (base64url); only its hash is stored. */
export async function createApiKey(db: Db, who: Principal, body: ApiKeyCreateBody, now = new Date()) {
  const expiresAt = body.expiresAt ? new Date(body.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) throw new AppError('API_KEY_EXPIRY_PAST');
  const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  const prefix = key.slice(0, API_KEY_VISIBLE);
  const [row] = await db
    .insert(apiKeys)
    .values({ name: body.name, prefix, keyHash: hashApiKey(key), scopes: body.scopes, createdBy: who.id || null, createdByName: who.username, expiresAt })
    .returning({ id: apiKeys.id });
  return { id: row!.id, key, prefix };
}

/** Keys not revoked, newest first (expired ones too, marked by their expiry). */
export async function listApiKeys(db: Db, query: PageQuery): Promise<Page<ApiKey>> {
  const live = isNull(apiKeys.revokedAt);
  const rows = await db
    .select()
    .from(apiKeys)
    .where(live)
    .orderBy(desc(apiKeys.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [total] = await db.select({ n: count() }).from(apiKeys).where(live);
  return {
    total: total?.n ?? 0,
    list: rows.map((r) => ({
      id: r.id,
      name: r.name,
      prefix: r.prefix,
      scopes: r.scopes,
      expiresAt: r.expiresAt?.toISOString() ?? null,
      createdAt: r.createdAt.toISOString(),
      createdBy: r.createdByName,
      lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
      lastUsedIp: r.lastUsedIp,
    })),
  };
}

/** Revokes a key; the key guard reads the row on every call, so every node refuses it from now on. */
export async function revokeApiKey(db: Db, id: number) {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix });
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}
