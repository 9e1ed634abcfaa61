import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The per-source request counters of the rate-limited endpoints (`rateLimit` in the contract), one
 * row per endpoint and client address, shared by every server node. A window starts at the first
 * request and lasts the limit's time window; a request after `reset_at` starts the next one.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    /** `<METHOD> <route> <address>` (IPv6 by /64, like @fastify/rate-limit's own key). */
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_hits_reset_at').on(t.resetAt)],
);
