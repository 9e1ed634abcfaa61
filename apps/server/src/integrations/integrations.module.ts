import { apiKeyApi, webhookApi } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { serve } from '../http/endpoints.ts';
import { principal } from '../http/auth.ts';
import type { FeatureModule } from '../module.ts';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.service.ts';
import { WebhookSender } from './webhook-sender.ts';
import { webhookSubscriber } from './webhook-subscriber.ts';
import { createWebhook, getWebhook, listDeliveries, listWebhooks, queueTestDelivery, removeWebhook, retryDelivery, updateWebhook } from './webhooks.service.ts';

/**
 * Integrations for other systems: API keys (admins create them; the key guard in http/auth.ts
 * authenticates them) and signed webhooks, fed by the event stream and sent by a queue worker.
 */
export function integrationsModule(ctx: AppContext): FeatureModule {
  const { db, config } = ctx;
  const now = () => config.webhookClock();
  const rules = { allowHttp: config.webhookAllowHttp, allowPrivate: config.webhookAllowPrivate };

  const sender = new WebhookSender(db, { ...rules, nodeId: ctx.gateway.nodeId, now, leaseMs: 60_000, pollMs: 1_000, log: ctx.log, count: (outcome) => ctx.metrics.countWebhookDelivery(outcome) });

  return {
    name: 'integrations',
    subscribes: [webhookSubscriber(db, { now, queued: () => sender.wake() })],
    routes(scope) {
      serve(scope, ctx, apiKeyApi, {
        list: async ({ query }) => listApiKeys(db, query),
        create: async ({ body, request, audit }) => {
          const created = await createApiKey(db, principal(request), body);
          audit({ targetType: 'api-key', targetId: created.id, targetName: `${body.name} (${created.prefix})`, detail: { scopes: body.scopes, expiresAt: body.expiresAt ?? null } });
          return created;
        },
        revoke: async ({ params, audit }) => {
          audit({ targetType: 'api-key', targetId: params.id });
          const row = await revokeApiKey(db, params.id);
          audit({ targetName: `${row.name} (${row.prefix})` });
          return { id: row.id };
        },
      });
      serve(scope, ctx, webhookApi, {
        list: async () => listWebhooks(db, now()),
        get: async ({ params }) => getWebhook(db, params.id, now()),
        create: async ({ body, request, audit }) => {
          audit({ targetType: 'webhook', targetName: body.url, detail: { events: body.events } });
          const created = await createWebhook(db, principal(request), body, rules);
          audit({ targetId: created.id });
          return created;
        },
        update: async ({ params, body, audit }) => {
          audit({ targetType: 'webhook', targetId: params.id, detail: { ...body, rotateSecret: body.rotateSecret ?? false } });
          const updated = await updateWebhook(db, params.id, body, rules, now());
          audit({ targetName: updated.url });
          if (body.enabled) sender.wake();
          return { id: updated.id, secret: updated.secret };
        },
        remove: async ({ params, audit }) => {
          audit({ targetType: 'webhook', targetId: params.id });
          const row = await removeWebhook(db, params.id);
          audit({ targetName: row.url });
          return { id: row.id };
        },
        deliveries: async ({ params, query }) => listDeliveries(db, params.id, query),
        test: async ({ params, audit }) => {
          audit({ targetType: 'webhook', targetId: params.id });
          const queued = await queueTestDelivery(db, params.id, now());
          audit({ targetName: queued.url, detail: { deliveryId: queued.deliveryId } });
          sender.wake();
          return { deliveryId: queued.deliveryId };
        },
        retry: async ({ params, audit }) => {
          audit({ targetType: 'webhook-delivery', targetId: params.id });
          const row = await retryDelivery(db, params.id, now());
          audit({ detail: { webhookId: row.webhookId } });
          sender.wake();
          return { id: row.id };
        },
      });
    },
    async start() {
      sender.start();
    },
    async stop() {
      await sender.stop();
    },
  };
}
