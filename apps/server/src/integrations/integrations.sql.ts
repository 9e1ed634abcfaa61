import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { staffUsers } from '../staff/staff.sql.ts';

/** An API key for another system: only its SHA-256 is kept; `prefix` names it in lists and logs. */
export const apiKeys = pgTable('api_keys', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  prefix: text('prefix').notNull(),
  keyHash: text('key_hash').notNull().unique(),
  scopes: text('scopes').array().notNull(),
  createdBy: integer('created_by').references(() => staffUsers.id, { onDelete: 'set null' }),
  createdByName: text('created_by_name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  /** Written at most once a minute per key. */
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  lastUsedIp: text('last_used_ip'),
});

/** Where signed events go; the previous secret still signs until `previousSecretUntil`. */
export const webhooks = pgTable('webhooks', {
  id: serial('id').primaryKey(),
  url: text('url').notNull(),
  events: text('events').array().notNull(),
  /** Device events only from the mowers of these device groups; empty: every mower. */
  groupIds: integer('group_ids').array().notNull().default([]),
  description: text('description').notNull().default(''),
  secret: text('secret').notNull(),
  previousSecret: text('previous_secret'),
  previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true }),
  enabled: boolean('enabled').notNull().default(true),
  disabledReason: text('disabled_reason'),
  failingSince: timestamp('failing_since', { withTimezone: true }),
  createdBy: integer('created_by').references(() => staffUsers.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The queue and the delivery log: one row per (webhook, event), claimed with a lease. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    webhookId: integer('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    eventId: bigint('event_id', { mode: 'number' }),
    messageId: text('message_id').notNull(),
    eventType: text('event_type').notNull(),
    body: text('body').notNull(),
    status: text('status').$type<'pending' | 'succeeded' | 'failed'>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAt: timestamp('next_at', { withTimezone: true }),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lockedBy: text('locked_by'),
    responseStatus: integer('response_status'),
    durationMs: integer('duration_ms'),
    responseExcerpt: text('response_excerpt').notNull().default(''),
    error: text('error').notNull().default(''),
    requestHeaders: jsonb('request_headers').$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
  },
  (t) => [unique().on(t.webhookId, t.eventId), index('webhook_deliveries_log_idx').on(t.webhookId, t.id)],
);
