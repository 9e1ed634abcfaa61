import { z } from 'zod';
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

/** One value met in the walk: its key, and the step of the object holding it (a parent pointer). */
interface Step {
  key: string;
  value: unknown;
  parent: Step | undefined;
}

/**
 * The path (`name`, `filters.0.sn`; `''` for the value itself) of the first string or object key
 * in a parsed input that PostgreSQL cannot store, or undefined when all of it can be. `path` is
 * the prefix of the value's own path.
 *
 * The walk is iterative with an explicit stack and in the order a recursive walk would take (a
 * key, then everything under it, then the next key), so its cost is linear in the size of the
 * input whatever its depth and no depth can overflow the call stack. Each step points to its
 * parent; the path is built only for the value that is refused.
 */
export function unstorableTextPath(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : path.join('.');
  if (typeof value !== 'object' || value === null) return undefined;
  const pending: Step[] = [];
  const push = (object: object, parent: Step | undefined) => {
    const entries = Object.entries(object);
    // Reversed onto the stack, so the first entry is walked first.
    for (let i = entries.length - 1; i >= 0; i--) pending.push({ key: entries[i]![0], value: entries[i]![1], parent });
  };
  const pathOf = (step: Step | undefined, last: string) => {
    const keys = [last];
    for (let s = step; s; s = s.parent) keys.push(s.key);
    return [...path, ...keys.reverse()].join('.');
  };
  push(value, undefined);
  for (let step = pending.pop(); step; step = pending.pop()) {
    if (!isStorableText(step.key)) return pathOf(step.parent, [...step.key].map((c) => (isStorableText(c) ? c : '?')).join(''));
    const inner = step.value;
    if (typeof inner === 'string') {
      if (!isStorableText(inner)) return pathOf(step.parent, step.key);
    } else if (typeof inner === 'object' && inner !== null) {
      push(inner, step);
    }
  }
  return undefined;
}

/**
 * A bounded string schema that refuses what PostgreSQL cannot store, for text that is also checked
 * where no request validator runs (event payloads, bodies parsed by hand). `trim` trims first.
 */
export const storedText = (max: number, opts: { trim?: boolean; min?: number } = {}) =>
  (opts.trim ? z.string().trim() : z.string())
    .min(opts.min ?? 0)
    .max(max)
    .refine(isStorableText, 'text PostgreSQL cannot store');
