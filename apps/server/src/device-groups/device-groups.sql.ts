import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { GroupFilter } from '@mowerline/contract';
import { devices, snText } from '../devices/devices.sql.ts';

/**
 * Labels on devices (migration 0030): staff tags (`source` 'staff') and the attributes a device
 * reports itself ('device'), apart by source and filtered the same way.
 */
export const deviceTags = pgTable(
  'device_tags',
  {
    sn: snText('sn')
      .notNull()
      .references(() => devices.sn, { onDelete: 'cascade' }),
    source: text('source', { enum: ['staff', 'device'] }).notNull(),
    key: text('key').notNull(),
    value: text('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.sn, t.source, t.key] }), index('device_tags_source_key_value_sn').on(t.source, t.key, t.value, t.sn)],
);

export const deviceGroups = pgTable(
  'device_groups',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    kind: text('kind', { enum: ['static', 'dynamic'] }).notNull(),
    /** Dynamic groups only: the saved filter. */
    filter: jsonb('filter').$type<GroupFilter>(),
    createdBy: integer('created_by'),
    createdByName: text('created_by_name').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('device_groups_name_lower').on(sql`lower(${t.name})`)],
);
export type DeviceGroupRow = typeof deviceGroups.$inferSelect;

/** Members of static groups. */
export const deviceGroupMembers = pgTable(
  'device_group_members',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => deviceGroups.id, { onDelete: 'cascade' }),
    sn: snText('sn')
      .notNull()
      .references(() => devices.sn, { onDelete: 'cascade' }),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.sn] }), index('device_group_members_sn').on(t.sn)],
);
