import { bigint, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { productModels } from '../product/product.sql.ts';

/**
 * Firmware images and voice packs: the file lives in DATA_DIR/files (`filePath` is relative to it),
 * the row holds what devices verify (size, SHA-256, the platform's Ed25519 signature).
 */
export const otaArtifacts = pgTable(
  'ota_artifacts',
  {
    id: serial('id').primaryKey(),
    kind: text('kind', { enum: ['firmware', 'voice'] }).notNull(),
    modelId: integer('model_id')
      .notNull()
      .references(() => productModels.id),
    /** Voice packs only; '' for firmware. */
    language: text('language').notNull().default(''),
    version: text('version').notNull(),
    changelogZh: text('changelog_zh').notNull().default(''),
    changelogEn: text('changelog_en').notNull().default(''),
    minFromVersion: text('min_from_version').notNull().default(''),
    status: text('status', { enum: ['draft', 'released', 'deprecated'] }).notNull().default('draft'),
    fileName: text('file_name').notNull(),
    filePath: text('file_path').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    signature: text('signature').notNull(),
    createdBy: integer('created_by'),
    createdByName: text('created_by_name').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    releasedAt: timestamp('released_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('ota_artifacts_version').on(t.kind, t.modelId, t.language, t.version),
    index('ota_artifacts_kind_created').on(t.kind, t.createdAt),
  ],
);
export type OtaArtifactRow = typeof otaArtifacts.$inferSelect;
