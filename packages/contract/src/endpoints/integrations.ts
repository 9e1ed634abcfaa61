import { z } from 'zod';
import { idParam, pageSchema } from '../envelope.ts';
import { endpoint, staff } from '../endpoint.ts';
import {
  apiKeyCreateBodySchema,
  apiKeyCreatedSchema,
  apiKeyListQuerySchema,
  apiKeySchema,
  webhookCreateBodySchema,
  webhookDeliveryQuerySchema,
  webhookDeliverySchema,
  webhookSchema,
  webhookSecretSchema,
  webhookUpdateBodySchema,
  webhookUpdatedSchema,
} from '../integrations.ts';

const tag = 'integrations';
const access = staff('integrations');
const id = z.object({ id: idParam }).strict();

/** API keys for other systems: admins only, never with a key (the `integrations` resource). */
export const apiKeyApi = {
  list: endpoint({ method: 'GET', path: '/api/admin/api-key', access, tag, summary: 'API keys (active), with last use', query: apiKeyListQuerySchema, response: pageSchema(apiKeySchema) }),
  create: endpoint({
    method: 'POST',
    path: '/api/admin/api-key',
    access,
    tag,
    summary: 'Create an API key; the key is in this answer only',
    body: apiKeyCreateBodySchema,
    response: apiKeyCreatedSchema,
    errors: ['API_KEY_EXPIRY_PAST'],
    audit: 'integration.api-key.create',
  }),
  revoke: endpoint({
    method: 'DELETE',
    path: '/api/admin/api-key/:id',
    access,
    tag,
    summary: 'Revoke an API key: refused on every node from now on',
    params: id,
    response: z.object({ id: z.number().int() }),
    errors: ['NOT_FOUND'],
    audit: 'integration.api-key.revoke',
  }),
};

/** Signed webhooks (Standard Webhooks) with retries and a delivery log. */
export const webhookApi = {
  list: endpoint({ method: 'GET', path: '/api/admin/webhook', access, tag, summary: 'Webhooks', response: z.array(webhookSchema) }),
  create: endpoint({
    method: 'POST',
    path: '/api/admin/webhook',
    access,
    tag,
    summary: 'Create a webhook; its signing secret is in this answer only',
    body: webhookCreateBodySchema,
    response: webhookSecretSchema,
    errors: ['WEBHOOK_URL_REFUSED', 'GROUP_NOT_FOUND'],
    audit: 'integration.webhook.create',
  }),
  get: endpoint({ method: 'GET', path: '/api/admin/webhook/:id', access, tag, summary: 'One webhook', params: id, response: webhookSchema, errors: ['NOT_FOUND'] }),
  update: endpoint({
    method: 'PUT',
    path: '/api/admin/webhook/:id',
    access,
    tag,
    summary: 'Change a webhook, switch it on or off, or rotate its secret (the old one keeps signing for a day)',
    params: id,
    body: webhookUpdateBodySchema,
    response: webhookUpdatedSchema,
    errors: ['NOT_FOUND', 'WEBHOOK_URL_REFUSED', 'GROUP_NOT_FOUND'],
    audit: 'integration.webhook.update',
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/api/admin/webhook/:id',
    access,
    tag,
    summary: 'Delete a webhook and its delivery log',
    params: id,
    response: z.object({ id: z.number().int() }),
    errors: ['NOT_FOUND'],
    audit: 'integration.webhook.delete',
  }),
  deliveries: endpoint({
    method: 'GET',
    path: '/api/admin/webhook/:id/delivery',
    access,
    tag,
    summary: 'The delivery log of a webhook, newest first',
    params: id,
    query: webhookDeliveryQuerySchema,
    response: pageSchema(webhookDeliverySchema),
    errors: ['NOT_FOUND'],
  }),
  test: endpoint({
    method: 'POST',
    path: '/api/admin/webhook/:id/test',
    access,
    tag,
    summary: 'Queue a `webhook.test` event to this webhook',
    params: id,
    response: z.object({ deliveryId: z.number().int() }),
    errors: ['NOT_FOUND'],
    audit: 'integration.webhook.test',
  }),
  retry: endpoint({
    method: 'POST',
    path: '/api/admin/webhook/delivery/:id/retry',
    access,
    tag,
    summary: 'Send a delivery again now',
    params: id,
    response: z.object({ id: z.number().int() }),
    errors: ['NOT_FOUND'],
    audit: 'integration.webhook.retry',
  }),
};
