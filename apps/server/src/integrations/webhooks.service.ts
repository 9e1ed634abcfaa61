import { and, count, desc, eq, sql } from 'drizzle-orm';
import {
  WEBHOOK_TEST_EVENT,
  type Page,
  type Webhook,
  type WebhookCreateBody,
  type WebhookDelivery,
  type WebhookUpdateBody,
} from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { AppError } from '../http/envelope.ts';
import type { Principal } from '../http/auth.ts';
import { webhookDeliveries, webhooks } from './integrations.sql.ts';
import { newWebhookSecret } from './webhook-signing.ts';
import { checkWebhookUrl, type Resolver, type UrlRules } from './webhook-url.ts';
import { syncWebhookTypes } from './webhook-subscriber.ts';
import { groupById } from '../device-groups/list-filter.ts';

/** How long the previous secret still signs after a rotation. */
export const SECRET_OVERLAP_MS = 24 * 3_600_000;

async function refuseBadUrl(url: string, rules: UrlRules, resolve?: Resolver) {
  const checked = await checkWebhookUrl(url, rules, resolve);
  if ('refused' in checked) throw new AppError('WEBHOOK_URL_REFUSED', { reason: checked.refused });
}

/** Every named group exists (GROUP_NOT_FOUND otherwise). */
async function requireGroups(db: Db, ids: readonly number[] | undefined) {
  for (const id of ids ?? []) await groupById(db, id);
}

const toWebhook = (w: typeof webhooks.$inferSelect, now: Date): Webhook => ({
  id: w.id,
  url: w.url,
  events: w.events,
  groupIds: w.groupIds,
  description: w.description,
  enabled: w.enabled,
  disabledReason: w.disabledReason,
  failingSince: w.failingSince?.toISOString() ?? null,
  previousSecretUntil: w.previousSecretUntil && w.previousSecretUntil > now ? w.previousSecretUntil.toISOString() : null,
  createdAt: w.createdAt.toISOString(),
});

export async function createWebhook(db: Db, who: Principal, body: WebhookCreateBody, rules: UrlRules, resolve?: Resolver) {
  await refuseBadUrl(body.url, rules, resolve);
  await requireGroups(db, body.groupIds);
  const secret = newWebhookSecret();
  const [row] = await db
    .insert(webhooks)
    .values({ url: body.url, events: body.events, groupIds: body.groupIds ?? [], description: body.description ?? '', secret, createdBy: who.id || null })
    .returning({ id: webhooks.id });
  await syncWebhookTypes(db);
  return { id: row!.id, secret };
}

export async function listWebhooks(db: Db, now: Date): Promise<Webhook[]> {
  const rows = await db.select().from(webhooks).orderBy(desc(webhooks.id));
  return rows.map((w) => toWebhook(w, now));
}

export async function getWebhook(db: Db, id: number, now: Date): Promise<Webhook> {
  const [row] = await db.select().from(webhooks).where(eq(webhooks.id, id));
  if (!row) throw new AppError('NOT_FOUND');
  return toWebhook(row, now);
}

/** Changes what is given. Enabling clears the failure streak; a rotation keeps the old secret signing for a day. */
export async function updateWebhook(db: Db, id: number, body: WebhookUpdateBody, rules: UrlRules, now: Date) {
  const [current] = await db.select().from(webhooks).where(eq(webhooks.id, id));
  if (!current) throw new AppError('NOT_FOUND');
  if (body.url !== undefined) await refuseBadUrl(body.url, rules);
  await requireGroups(db, body.groupIds);
  const secret = body.rotateSecret ? newWebhookSecret() : undefined;
  await db
    .update(webhooks)
    .set({
      url: body.url,
      events: body.events,
      groupIds: body.groupIds,
      description: body.description,
      ...(body.enabled === undefined ? {} : { enabled: body.enabled, disabledReason: body.enabled ? null : 'admin', failingSince: body.enabled ? null : current.failingSince }),
      ...(secret ? { secret, previousSecret: current.secret, previousSecretUntil: new Date(now.getTime() + SECRET_OVERLAP_MS) } : {}),
    })
    .where(eq(webhooks.id, id));
  await syncWebhookTypes(db);
  return { id, secret, url: body.url ?? current.url };
}

export async function removeWebhook(db: Db, id: number) {
  const [row] = await db.delete(webhooks).where(eq(webhooks.id, id)).returning({ id: webhooks.id, url: webhooks.url });
  if (!row) throw new AppError('NOT_FOUND');
  await syncWebhookTypes(db);
  return row;
}

export async function listDeliveries(db: Db, webhookId: number, query: { page: number; pageSize: number; status?: WebhookDelivery['status'] }): Promise<Page<WebhookDelivery>> {
  const [exists] = await db.select({ id: webhooks.id }).from(webhooks).where(eq(webhooks.id, webhookId));
  if (!exists) throw new AppError('NOT_FOUND');
  const where = and(eq(webhookDeliveries.webhookId, webhookId), query.status ? eq(webhookDeliveries.status, query.status) : undefined);
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(where)
    .orderBy(desc(webhookDeliveries.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [total] = await db.select({ n: count() }).from(webhookDeliveries).where(where);
  return {
    total: total?.n ?? 0,
    list: rows.map((d) => ({
      id: d.id,
      webhookId: d.webhookId,
      messageId: d.messageId,
      eventType: d.eventType,
      status: d.status,
      attempts: d.attempts,
      nextAt: d.status === 'pending' ? (d.nextAt?.toISOString() ?? null) : null,
      responseStatus: d.responseStatus,
      durationMs: d.durationMs,
      responseExcerpt: d.responseExcerpt,
      error: d.error,
      requestHeaders: d.requestHeaders,
      createdAt: d.createdAt.toISOString(),
      lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null,
    })),
  };
}

/** Queues a `webhook.test` event to one webhook (enabled or not: an admin tests a receiver before switching it on). */
export async function queueTestDelivery(db: Db, webhookId: number, now: Date) {
  const [exists] = await db.select({ id: webhooks.id, url: webhooks.url }).from(webhooks).where(eq(webhooks.id, webhookId));
  if (!exists) throw new AppError('NOT_FOUND');
  const body = JSON.stringify({ type: WEBHOOK_TEST_EVENT, timestamp: now.toISOString(), data: { webhookId, message: 'Test event from Mowerline' } });
  const messageId = `msg_test_${webhookId}_${now.getTime().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const [row] = await db
    .insert(webhookDeliveries)
    .values({ webhookId, messageId, eventType: WEBHOOK_TEST_EVENT, body, nextAt: now, createdAt: now })
    .returning({ id: webhookDeliveries.id });
  return { deliveryId: row!.id, url: exists.url };
}

/** Due again now, with its attempts so far kept in the log. */
export async function retryDelivery(db: Db, id: number, now: Date) {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAt: now, lockedUntil: null, lockedBy: null })
    .where(and(eq(webhookDeliveries.id, id), sql`(${webhookDeliveries.status} <> 'pending' or ${webhookDeliveries.lockedUntil} is null or ${webhookDeliveries.lockedUntil} < ${now.toISOString()}::timestamptz)`))
    .returning({ id: webhookDeliveries.id, webhookId: webhookDeliveries.webhookId });
  if (!row) {
    const [exists] = await db.select({ id: webhookDeliveries.id, webhookId: webhookDeliveries.webhookId }).from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
    if (!exists) throw new AppError('NOT_FOUND');
    // Being sent right now: that attempt is the retry.
    return exists;
  }
  return row;
}
