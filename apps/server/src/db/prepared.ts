import { sql, type Placeholder, type SQLWrapper } from 'drizzle-orm';
import type { Db } from './client.ts';

/** A named hole in a query built once: the value comes with each execution. */
export type Slot = (name: string) => Placeholder;
const slot: Slot = (name) => sql.placeholder(name);

interface Prepared<T> {
  execute(values?: Record<string, unknown>): Promise<T>;
}

/** Per database (tests run several servers in one process), by shape. */
const caches = new WeakMap<Db, Map<string, Prepared<unknown>>>();

/**
 * A list query built by drizzle once per shape, with a slot for every value, then run with each
 * request's values: building the SQL anew was a fifth of a small list call's CPU. The
 * statement stays unnamed, so PostgreSQL still plans it with the values at hand.
 *
 * `shape` must name everything that changes the SQL `build` writes (which filters are present,
 * the order, cursor or offset), and nothing else: the number of shapes is then bounded by the code.
 */
export function preparedByShape<T>(db: Db, shape: string, build: (slot: Slot) => { prepare(name: string): Prepared<T> }): Prepared<T> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let prepared = cache.get(shape) as Prepared<T> | undefined;
  if (!prepared) {
    prepared = build(slot).prepare('');
    cache.set(shape, prepared);
  }
  return prepared;
}

/** The names of the values that are set: the filter part of a shape. */
export function presentKeys(values: Record<string, unknown>): string {
  return Object.keys(values)
    .filter((k) => values[k] !== undefined)
    .join(',');
}

/** The values that are set, for a count's cache key. */
export function presentValues(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

/** The values themselves as bound parameters, where a query is built for one use (a count, an export). */
export function bound<V extends Record<string, unknown>>(values: V): (name: keyof V) => SQLWrapper {
  return (name) => sql`${values[name]}`;
}
