import { doublePrecision, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** A mower product line; every registered SN names one. */
export const productModels = pgTable(
  'product_models',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** Per-device ingest limits of this model; null takes the server default (gateway/ingest-limits.ts). */
    telemetryRate: doublePrecision('telemetry_rate'),
    telemetryBurst: integer('telemetry_burst'),
    eventsPerHour: integer('events_per_hour'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('product_models_code').on(t.code)],
);
export type ProductModelRow = typeof productModels.$inferSelect;
