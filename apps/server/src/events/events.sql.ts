import { bigint, bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** The outbox: every domain event, written with the change that caused it (docs/events.md). */
export const events = pgTable(
  'events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    type: text('type').notNull(),
    version: integer('version').notNull(),
    subject: text('subject').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('events_created_at_idx').on(t.createdAt)],
);

/** The subscribers the nodes run and the types each wants; new events get a delivery row per match. */
export const eventSubscribers = pgTable('event_subscribers', {
  name: text('name').primaryKey(),
  types: text('types').array().notNull(),
  delivered: bigint('delivered', { mode: 'number' }).notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One row per (subscriber, event) not yet handled; a node holds it while `locked_until` is ahead. */
export const eventDeliveries = pgTable(
  'event_deliveries',
  {
    subscriber: text('subscriber').notNull(),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    subject: text('subject').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAt: timestamp('next_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.subscriber, t.eventId] }), index('event_deliveries_subject_idx').on(t.subscriber, t.subject, t.eventId)],
);

/** Events a database-only subscriber handled, written with its effects: a repeat is found by id. */
export const eventHandled = pgTable(
  'event_handled',
  {
    subscriber: text('subscriber').notNull(),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.subscriber, t.eventId] })],
);
