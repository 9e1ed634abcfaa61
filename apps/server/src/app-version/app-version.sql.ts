import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** Mobile app releases per platform; the app asks /api/app/v1/app-version/latest whether to update. */
export const appVersions = pgTable(
  'app_versions',
  {
    id: serial('id').primaryKey(),
    platform: text('platform', { enum: ['ios', 'android'] }).notNull(),
    version: text('version').notNull(),
    build: integer('build').notNull(),
    changelogZh: text('changelog_zh').notNull().default(''),
    changelogEn: text('changelog_en').notNull().default(''),
    forceUpdate: boolean('force_update').notNull().default(false),
    minSupportedVersion: text('min_supported_version').notNull().default(''),
    downloadUrl: text('download_url').notNull().default(''),
    createdBy: integer('created_by'),
    createdByName: text('created_by_name').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when staff withdraw a release: the app is no longer offered it; the row stays for the record. */
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    withdrawnByName: text('withdrawn_by_name').notNull().default(''),
  },
  (t) => [uniqueIndex('app_versions_platform_build').on(t.platform, t.build), index('app_versions_platform_created').on(t.platform, t.createdAt)],
);
export type AppVersionRow = typeof appVersions.$inferSelect;
