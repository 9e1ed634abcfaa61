import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { contentFileKinds, contentStates, contentTypes } from '@mowerline/contract';
import { appUsers } from '../end-users/end-users.sql.ts';

/** An uploaded cover, image or video, stored under DATA_DIR/files/content (images re-encoded, no metadata). */
export const contentFiles = pgTable('content_files', {
  id: serial('id').primaryKey(),
  kind: text('kind', { enum: contentFileKinds }).notNull(),
  mime: text('mime').notNull(),
  /** Relative to DATA_DIR/files. */
  filePath: text('file_path').notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  sha256: text('sha256').notNull(),
  width: integer('width'),
  height: integer('height'),
  createdBy: integer('created_by'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
export type ContentFileRow = typeof contentFiles.$inferSelect;

/** An article, image post or video, with its title and body in both languages. */
export const contentItems = pgTable(
  'content_items',
  {
    id: serial('id').primaryKey(),
    type: text('type', { enum: contentTypes }).notNull(),
    state: text('state', { enum: contentStates }).notNull().default('draft'),
    titleZh: text('title_zh').notNull(),
    titleEn: text('title_en').notNull(),
    bodyZh: text('body_zh').notNull().default(''),
    bodyEn: text('body_en').notNull().default(''),
    coverFileId: integer('cover_file_id').references(() => contentFiles.id),
    mediaFileId: integer('media_file_id').references(() => contentFiles.id),
    mediaUrl: text('media_url'),
    /** Product model codes; empty = every owner. */
    models: text('models').array().notNull().default(sql`'{}'::text[]`),
    createdBy: integer('created_by'),
    createdByName: text('created_by_name').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
  },
  (t) => [index('content_items_state_type_id').on(t.state, t.type, t.id)],
);
export type ContentItemRow = typeof contentItems.$inferSelect;

/**
 * One open per app user per item per UTC day: the unique key makes a repeat an ON CONFLICT DO
 * NOTHING, so only a first open of the day reaches the daily roll-up.
 */
export const contentViews = pgTable(
  'content_views',
  {
    contentId: integer('content_id')
      .notNull()
      .references(() => contentItems.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => appUsers.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('content_views_once_a_day').on(t.contentId, t.userId, t.day), index('content_views_user').on(t.userId), index('content_views_day_user').on(t.day, t.userId)],
);

/** Opens per item per UTC day, kept in the statement that records a view: charts and popular lists read this, never the views. */
export const contentDaily = pgTable(
  'content_daily',
  {
    contentId: integer('content_id')
      .notNull()
      .references(() => contentItems.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    opens: integer('opens').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.contentId, t.day] }), index('content_daily_day').on(t.day)],
);
