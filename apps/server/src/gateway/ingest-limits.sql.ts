import { bigint, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { devices, snText } from '../devices/devices.sql.ts';

/**
 * Messages each device sent over its ingest limits and the server dropped, summed over every node.
 * Apart from `device_state`: the lanes rewrite that row for every batch, and another writer on it
 * would wait on (or deadlock with) their row locks. Only devices that were limited have a row.
 */
export const deviceIngestDrops = pgTable('device_ingest_drops', {
  sn: snText('sn')
    .primaryKey()
    .references(() => devices.sn, { onDelete: 'cascade' }),
  telemetry: bigint('telemetry', { mode: 'number' }).notNull().default(0),
  events: bigint('events', { mode: 'number' }).notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
