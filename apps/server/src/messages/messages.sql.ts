import { bigserial, index, integer, jsonb, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import type { EventSeverity } from '@mowerline/contract';
import { staffUsers } from '../staff/staff.sql.ts';

/**
 * A message-box entry for one staff member. The text is rendered at read time from `kind` and
 * `params`, so each reader sees it in their own language.
 */
export const messages = pgTable(
  'messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['message', 'notice', 'todo'] }).notNull(),
    kind: smallint('kind').notNull(),
    params: jsonb('params').$type<Record<string, string>>().notNull().default({}),
    status: smallint('status').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('messages_user_type_status').on(t.userId, t.type, t.status)],
);

/** Which device exception events notify a staff member; no row = the defaults (critical and major). */
export const notifyPrefs = pgTable('staff_notify_prefs', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => staffUsers.id, { onDelete: 'cascade' }),
  severities: jsonb('severities').$type<EventSeverity[]>().notNull(),
  /** Empty: every code of the chosen severities. */
  codes: jsonb('codes').$type<string[]>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
