import { z } from 'zod';

/** Every admin/app response: `code` 0 is success, anything else is an error from the catalogue. */
export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
  status: 'ok' | 'fail';
}

export const envelopeSchema = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.number().int(), msg: z.string(), data, status: z.enum(['ok', 'fail']) });

export const MAX_PAGE_SIZE = 100;

export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

export const pageSchema = <T extends z.ZodType>(item: T) =>
  z.object({ list: z.array(item), total: z.number().int().min(0) });
export interface Page<T> {
  list: T[];
  total: number;
}

/** ISO-8601 timestamp with offset, as every API time is written. */
export const isoTime = z.iso.datetime({ offset: true });
/** Optional time bound in a query string. */
export const isoTimeQuery = z.iso.datetime({ offset: true }).optional();

/**
 * The largest id (and counter) PostgreSQL's `integer` columns hold. Every integer input that reaches
 * such a column is bounded by it, so 2^31 is a 400 at validation rather than a 500 from the database.
 */
export const INT4_MAX = 2_147_483_647;
/** A row id in a JSON body. */
export const idSchema = z.number().int().min(1).max(INT4_MAX);
/** A row id in a path or query string (text on the wire). */
export const idParam = z.coerce.number().int().min(1).max(INT4_MAX);

/** A query-string boolean: exactly `true` or `false`. */
export const queryBoolean = z.enum(['true', 'false']).transform((v) => v === 'true');
