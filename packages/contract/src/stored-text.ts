import { storableText } from './device-protocol.ts';

/**
 * Text PostgreSQL cannot store: a NUL character (`text` refuses 0x00, and the whole statement or
 * batch fails with a 500) or a lone UTF-16 surrogate (not encodable as UTF-8; it would be stored as
 * U+FFFD, silently changed). The server refuses both in every request input with one rule, run by
 * its validator on the raw params, query and body before any schema, rather than a refinement on
 * each string schema: a field, a record key or a schema added later cannot miss it.
 */
export function isStorableText(text: string): boolean {
  // Device text is neutralised (`storableText`); request input is refused: one definition of both.
  return storableText(text) === text;
}

/**
 * The path (`name`, `filters.0.sn`; `''` for the value itself) of the first string or object key
 * in a parsed input that PostgreSQL cannot store, or undefined when all of it can be.
 */
export function unstorableTextPath(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : path.join('.');
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (!isStorableText(key)) return [...path, [...key].map((c) => (isStorableText(c) ? c : '?')).join('')].join('.');
    const found = unstorableTextPath(inner, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}
