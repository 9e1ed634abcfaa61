import { sql } from 'drizzle-orm';
import { bigint, boolean, customType, index, integer, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/** Raw bytes; PGlite answers Uint8Array and node-postgres Buffer, both normalised to Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => value,
  fromDriver: (value) => Buffer.from(value),
});

/**
 * One row per remote shell session, open or closed. The node carrying the browser's socket keeps
 * `heartbeat_at` fresh; an open session whose heartbeat stops is closed by any node (`node_lost`).
 */
export const shellSessions = pgTable(
  'shell_sessions',
  {
    id: text('id').primaryKey(),
    sn: text('sn').notNull(),
    staffId: integer('staff_id').notNull(),
    staffName: text('staff_name').notNull(),
    nodeId: text('node_id').notNull(),
    status: text('status', { enum: ['open', 'closed'] }).notNull().default('open'),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closeReason: text('close_reason'),
    closeMessage: text('close_message').notNull().default(''),
    cols: smallint('cols').notNull(),
    rows: smallint('rows').notNull(),
    bytesIn: bigint('bytes_in', { mode: 'number' }).notNull().default(0),
    bytesOut: bigint('bytes_out', { mode: 'number' }).notNull().default(0),
    recordedBytes: bigint('recorded_bytes', { mode: 'number' }).notNull().default(0),
    recordTruncated: boolean('record_truncated').notNull().default(false),
    ip: text('ip').notNull().default(''),
  },
  (t) => [
    index('shell_sessions_opened').on(t.openedAt, t.id),
    index('shell_sessions_sn_opened').on(t.sn, t.openedAt),
    // The limits count open sessions per device and per staff member.
    index('shell_sessions_open_sn').on(t.sn).where(sql`${t.status} = 'open'`),
    index('shell_sessions_open_staff').on(t.staffId).where(sql`${t.status} = 'open'`),
  ],
);
export type ShellSessionRow = typeof shellSessions.$inferSelect;

/** The recording: every output chunk, input and resize with its time since the session opened. */
export const shellRecords = pgTable(
  'shell_records',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => shellSessions.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    atMs: integer('at_ms').notNull(),
    kind: text('kind', { enum: ['o', 'i', 'r'] }).notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.seq] })],
);
