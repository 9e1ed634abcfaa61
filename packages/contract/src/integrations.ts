import { z } from 'zod';
import { isoTime, pageQuerySchema } from './envelope.ts';
import type { EndpointDef } from './endpoint.ts';
import { eventTypeNames } from './events.ts';
import { permissions, type Resource } from './roles.ts';
import { storedText } from './stored-text.ts';

const text = (max: number) => storedText(max, { trim: true });

/** What an API key starts with: recognisable in logs, config files and secret scanners. */
export const API_KEY_PREFIX = 'mwl_';
/** Characters of a key shown in lists and logs (`mwl_` and the first random characters). */
export const API_KEY_VISIBLE = 12;

/**
 * Resources a key never holds, whatever its scopes: staff accounts and the integrations themselves
 * (a key cannot mint keys or redirect webhooks), a person's own profile and message box, and the
 * remote shell (the most dangerous power there is).
 */
export const apiKeyExcludedResources = ['staff', 'integrations', 'profile', 'messages', 'shell'] as const satisfies readonly Resource[];
const excluded = new Set<string>(apiKeyExcludedResources);

export const apiKeyAccessModes = ['read', 'write'] as const;
/** The scopes a key may hold: the permission table's resources × read/write (`devices:read`, `ticket:write`). */
export const apiKeyScopes = (Object.keys(permissions) as Resource[])
  .filter((r) => !excluded.has(r))
  .flatMap((r) => apiKeyAccessModes.map((mode) => `${r}:${mode}` as const));
export type ApiKeyScope = (typeof apiKeyScopes)[number];

/** The scope an endpoint needs from a key: its resource, `read` for GET and `write` for the rest. */
export function apiKeyScopeOf(def: Pick<EndpointDef, 'access' | 'method'>): ApiKeyScope | undefined {
  if (def.access.kind !== 'staff' || !def.access.resource || excluded.has(def.access.resource)) return undefined;
  return `${def.access.resource}:${def.method === 'GET' ? 'read' : 'write'}` as ApiKeyScope;
}

/**
 * Whether a key may call an endpoint at all (given the scope): never an endpoint that needs a
 * step-up (shell, campaigns, secret rotation), one without a resource (a person's own session and
 * factors), or one of an excluded resource.
 */
export function apiKeyAllowed(def: Pick<EndpointDef, 'access' | 'method' | 'stepUp'>): boolean {
  return !def.stepUp && apiKeyScopeOf(def) !== undefined;
}

/** POST /api/admin/api-key */
export const apiKeyCreateBodySchema = z
  .object({
    name: storedText(64, { trim: true, min: 1 }),
    scopes: z
      .array(z.enum(apiKeyScopes as [ApiKeyScope, ...ApiKeyScope[]]))
      .min(1)
      .max(apiKeyScopes.length)
      .refine((s) => new Set(s).size === s.length, 'each scope once'),
    expiresAt: isoTime.optional(),
  })
  .strict();
export type ApiKeyCreateBody = z.infer<typeof apiKeyCreateBodySchema>;

/** The new key, shown this once: only its hash is kept. */
export const apiKeyCreatedSchema = z.object({ id: z.number().int(), key: z.string(), prefix: z.string() });

export const apiKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.string()),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  createdBy: z.string(),
  lastUsedAt: z.string().nullable(),
  lastUsedIp: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyListQuerySchema = pageQuerySchema.strict();

/** What a webhook may subscribe to: any catalogue event type, or `*` for all of them. */
export const webhookEventFilters = ['*', ...eventTypeNames] as const;
/** The `type` of the event `POST /api/admin/webhook/{id}/test` sends. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

const webhookUrl = text(2048).pipe(z.url({ protocol: /^https?$/ }));
const webhookEvents = z
  .array(z.enum(webhookEventFilters))
  .min(1)
  .max(webhookEventFilters.length)
  .refine((s) => new Set(s).size === s.length, 'each event type once');

/** Device events (their subject is a mower) only from the mowers of these groups; empty or absent: every mower. */
const webhookGroups = z.array(z.number().int().min(1)).max(20).refine((ids) => new Set(ids).size === ids.length, 'each group once');

export const webhookCreateBodySchema = z.object({ url: webhookUrl, events: webhookEvents, groupIds: webhookGroups.optional(), description: text(200).optional() }).strict();
export type WebhookCreateBody = z.infer<typeof webhookCreateBodySchema>;

/** PUT /api/admin/webhook/{id}: change what is given; `rotateSecret` issues a new secret, the old one still signs for a day. */
export const webhookUpdateBodySchema = z
  .object({
    url: webhookUrl.optional(),
    events: webhookEvents.optional(),
    groupIds: webhookGroups.optional(),
    description: text(200).optional(),
    enabled: z.boolean().optional(),
    rotateSecret: z.boolean().optional(),
  })
  .strict();
export type WebhookUpdateBody = z.infer<typeof webhookUpdateBodySchema>;

export const webhookSecretSchema = z.object({ id: z.number().int(), secret: z.string() });
export const webhookUpdatedSchema = z.object({ id: z.number().int(), secret: z.string().optional() });

export const webhookSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(z.string()),
  groupIds: z.array(z.number().int()),
  description: z.string(),
  enabled: z.boolean(),
  /** Why it was switched off: `failing` (three days of failed deliveries) or `admin`. */
  disabledReason: z.string().nullable(),
  /** The first failed delivery since the last success. */
  failingSince: z.string().nullable(),
  /** Until then the previous secret signs too (rotation overlap). */
  previousSecretUntil: z.string().nullable(),
  createdAt: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;

export const webhookDeliveryStatuses = ['pending', 'succeeded', 'failed'] as const;
export const webhookDeliverySchema = z.object({
  id: z.number().int(),
  webhookId: z.number().int(),
  /** The `webhook-id` header: the same on every attempt of this delivery. */
  messageId: z.string(),
  eventType: z.string(),
  status: z.enum(webhookDeliveryStatuses),
  attempts: z.number().int(),
  nextAt: z.string().nullable(),
  responseStatus: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  /** The first 4 KiB of the last answer, as text. */
  responseExcerpt: z.string(),
  error: z.string(),
  /** The signature headers of the last attempt. */
  requestHeaders: z.record(z.string(), z.string()),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryQuerySchema = pageQuerySchema.extend({ status: z.enum(webhookDeliveryStatuses).optional() }).strict();
