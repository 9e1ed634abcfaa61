import { sql } from 'drizzle-orm';
import { bigint, boolean, customType, index, integer, jsonb, pgSequence, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { ticketCategories, ticketEntryChannels, ticketEntryKinds, ticketHistoryFields, ticketPriorities, ticketStatuses, type TicketDeviceSnapshot } from '@mowerline/contract';
import { snText } from '../devices/devices.sql.ts';
import { appUsers } from '../end-users/end-users.sql.ts';
import { staffUsers } from '../staff/staff.sql.ts';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** Human-readable ticket numbers (`#100001`), apart from the row id so ids never look like a count. */
export const ticketNumbers = pgSequence('ticket_numbers', { startWith: 100001 });

/**
 * One feedback ticket. SLA due times are stored (not derived on read) so the list, its "breaching"
 * view and the dashboard count are index ranges; `sla_paused_at` marks a running pause (pending the
 * customer), and `sla_paused_s` the pauses so far, which every due time includes.
 * `search` is the full-text document: title, description and every public entry (never a note).
 * Times the list pages on (`last_activity_at`, `created_at`) are written at millisecond precision
 * by the service, so a cursor (milliseconds) names a row exactly.
 */
export const tickets = pgTable(
  'tickets',
  {
    id: serial('id').primaryKey(),
    number: integer('number').notNull().default(sql`nextval('ticket_numbers')`),
    userId: integer('user_id')
      .notNull()
      .references(() => appUsers.id, { onDelete: 'cascade' }),
    sn: snText('sn'),
    category: text('category', { enum: ticketCategories }).notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    appVersion: text('app_version').notNull().default(''),
    os: text('os').notNull().default(''),
    status: text('status', { enum: ticketStatuses }).notNull().default('new'),
    priority: text('priority', { enum: ticketPriorities }).notNull().default('normal'),
    assigneeId: integer('assignee_id').references(() => staffUsers.id, { onDelete: 'set null' }),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    mergedIntoId: integer('merged_into_id'),
    deviceSnapshot: jsonb('device_snapshot').$type<TicketDeviceSnapshot>(),
    firstResponseDue: timestamp('first_response_due', { withTimezone: true }),
    resolutionDue: timestamp('resolution_due', { withTimezone: true }),
    slaPausedAt: timestamp('sla_paused_at', { withTimezone: true }),
    slaPausedS: integer('sla_paused_s').notNull().default(0),
    firstResponseAt: timestamp('first_response_at', { withTimezone: true }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    ratingScore: smallint('rating_score'),
    ratingComment: text('rating_comment').notNull().default(''),
    ratedAt: timestamp('rated_at', { withTimezone: true }),
    search: tsvector('search').notNull(),
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('tickets_number').on(t.number),
    // The list is latest activity first; each filter has an index ending in (last_activity_at, id).
    index('tickets_activity').on(t.lastActivityAt, t.id),
    index('tickets_created').on(t.createdAt, t.id),
    index('tickets_status_activity').on(t.status, t.lastActivityAt, t.id),
    index('tickets_priority_activity').on(t.priority, t.lastActivityAt, t.id),
    // The usual pair of a triage filter: its page and its capped count are one index range (not a bitmap of two).
    index('tickets_status_priority_activity').on(t.status, t.priority, t.lastActivityAt, t.id),
    index('tickets_category_activity').on(t.category, t.lastActivityAt, t.id),
    index('tickets_assignee_activity').on(t.assigneeId, t.lastActivityAt, t.id),
    index('tickets_user_activity').on(t.userId, t.lastActivityAt, t.id),
    index('tickets_sn_activity').on(t.sn, t.lastActivityAt, t.id).where(sql`${t.sn} is not null`),
    index('tickets_unassigned_activity').on(t.lastActivityAt, t.id).where(sql`${t.assigneeId} is null and ${t.status} in ('new', 'open', 'pending_customer')`),
    // "Breaching": a running clock past its due time. Each clock's partial index is a range on the due time.
    index('tickets_first_response_running').on(t.firstResponseDue).where(sql`${t.firstResponseAt} is null and ${t.status} in ('new', 'open')`),
    index('tickets_resolution_running').on(t.resolutionDue).where(sql`${t.status} in ('new', 'open')`),
    index('tickets_merged_into').on(t.mergedIntoId).where(sql`${t.mergedIntoId} is not null`),
    index('tickets_search').using('gin', t.search),
    index('tickets_tags').using('gin', t.tags),
  ],
);
export type TicketRow = typeof tickets.$inferSelect;

/** The conversation: customer, agent and system entries; `internal` notes are staff-only. */
export const ticketEntries = pgTable(
  'ticket_entries',
  {
    id: serial('id').primaryKey(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ticketEntryKinds }).notNull(),
    internal: boolean('internal').notNull().default(false),
    channel: text('channel', { enum: ticketEntryChannels }).notNull(),
    authorStaffId: integer('author_staff_id').references(() => staffUsers.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull().default(''),
    body: text('body').notNull(),
    /** Set when a merge moved the entry here from another ticket. */
    mergedFromNumber: integer('merged_from_number'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ticket_entries_ticket').on(t.ticketId, t.id)],
);
export type TicketEntryRow = typeof ticketEntries.$inferSelect;

/** Files under DATA_DIR/files/tickets; `entry_id` null: filed with the ticket itself. */
export const ticketAttachments = pgTable(
  'ticket_attachments',
  {
    id: serial('id').primaryKey(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    entryId: integer('entry_id').references(() => ticketEntries.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    mime: text('mime').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** Relative to DATA_DIR/files. */
    filePath: text('file_path').notNull(),
    thumbPath: text('thumb_path'),
    sha256: text('sha256').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ticket_attachments_ticket').on(t.ticketId)],
);
export type TicketAttachmentRow = typeof ticketAttachments.$inferSelect;

/**
 * Stored files whose attachment row is gone, waiting to be removed from disk. A trigger on
 * ticket_attachments (migration 0017) fills it in the deleting transaction, whatever deleted the
 * row: an erased app account's cascade, a deleted ticket, raw SQL. So a file outlives its row only
 * until the next sweep (`sweepDeletedFiles`), even across a crash.
 */
export const ticketFileDeletions = pgTable('ticket_file_deletions', {
  /** Relative to DATA_DIR/files. */
  path: text('path').primaryKey(),
  queuedAt: timestamp('queued_at', { withTimezone: true }).notNull().defaultNow(),
});

/** What changed on a ticket, by whom (staff member, the customer, or the platform). */
export const ticketHistory = pgTable(
  'ticket_history',
  {
    id: serial('id').primaryKey(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorStaffId: integer('actor_staff_id').references(() => staffUsers.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull().default(''),
    field: text('field', { enum: ticketHistoryFields }).notNull(),
    from: text('from').notNull().default(''),
    to: text('to').notNull().default(''),
  },
  (t) => [index('ticket_history_ticket').on(t.ticketId, t.id)],
);

/** SLA targets per priority; a priority without a row uses the contract's default. */
export const ticketSla = pgTable('ticket_sla', {
  priority: text('priority', { enum: ticketPriorities }).primaryKey(),
  firstResponseMinutes: integer('first_response_minutes').notNull(),
  resolutionMinutes: integer('resolution_minutes').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
