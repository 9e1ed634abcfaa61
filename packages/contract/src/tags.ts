import { z } from 'zod';
import { storedText } from './stored-text.ts';

/**
 * Tags: key/value labels staff put on devices (`ring=beta`, `site=golf-course-7`). A key is lower
 * case, starts with a letter, 1–63 characters of letters, digits, `_`, `.` and `-`; a value is up
 * to 128 characters (text PostgreSQL can store, like every input).
 */
export const TAG_KEY_PATTERN = /^[a-z][a-z0-9_.-]{0,62}$/;
export const MAX_TAG_VALUE = 128;
export const tagKeySchema = z.string().regex(TAG_KEY_PATTERN, 'lower-case letter first, then lower-case letters, digits, _ . -; 1–63 characters');
export const tagValueSchema = storedText(MAX_TAG_VALUE);
/** Device attributes (reported by the device itself) may be camelCase: `hwRev`. */
export const ATTRIBUTE_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{0,62}$/;
export const attributeKeySchema = z.string().regex(ATTRIBUTE_KEY_PATTERN);
/** Tags (or attributes) as an object: `{ ring: 'beta' }`. */
export const tagMapSchema = z.record(z.string(), z.string());
export type TagMap = z.infer<typeof tagMapSchema>;

export const tagOps = ['eq', 'neq', 'exists', 'in'] as const;
export type TagOp = (typeof tagOps)[number];

/**
 * One condition on a tag or attribute. `eq`: the key has this value; `neq`: the key is set to
 * another value; `exists`: the key is set; `in`: the key has one of `values`. A key no device has
 * matches nothing (also for `neq`), never an error.
 */
export const tagConditionSchema = z
  .object({
    key: z.string().min(1).max(63),
    op: z.enum(tagOps),
    value: tagValueSchema.optional(),
    values: z.array(tagValueSchema).min(1).max(100).optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    if ((c.op === 'eq' || c.op === 'neq') && c.value === undefined) ctx.addIssue({ code: 'custom', path: ['value'], message: `${c.op} needs a value` });
    if (c.op === 'in' && c.values === undefined) ctx.addIssue({ code: 'custom', path: ['values'], message: 'in needs values' });
  });
export type TagCondition = z.infer<typeof tagConditionSchema>;
export const MAX_TAG_CONDITIONS = 20;

/**
 * A tag condition in a query string, repeatable: `tag=ring:beta` (the key has this value) or
 * `tag=ring` (the key is set). The value is everything after the first `:`. Kept as text in the
 * parsed query (a client sends what it received); `parseTagQuery` makes the conditions.
 */
const tagQueryItem = z
  .string()
  .min(1)
  .max(200)
  .refine((raw) => /^[^:]{1,63}(:|$)/.test(raw), 'a key of 1–63 characters, then optionally `:value`');
export const tagQuerySchema = z
  .preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(tagQueryItem).max(MAX_TAG_CONDITIONS))
  .optional();

export function parseTagQuery(items: readonly string[]): TagCondition[] {
  return items.map((raw) => {
    const at = raw.indexOf(':');
    return at < 0 ? { key: raw, op: 'exists' } : { key: raw.slice(0, at), op: 'eq', value: raw.slice(at + 1) };
  });
}
