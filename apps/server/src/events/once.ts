import { sql } from 'drizzle-orm';
import type { DomainEvent } from '@mowerline/contract';
import type { Db } from '../db/client.ts';

/** What a handler does once its transaction committed (a mail): may answer such a step. */
export type AfterCommit = () => Promise<unknown>;

/**
 * Wraps a subscriber whose effects are all in this database (the bell, counts): the effects and
 * the record of the event's id commit in one transaction, so a redelivery (a node that died after
 * handling, before acknowledging) is dropped by id and nothing happens twice. A step outside the
 * database (a mail) runs after the commit, at most once.
 */
export function onceById(db: Db, subscriber: string, handle: (tx: Db, event: DomainEvent) => Promise<void | AfterCommit>): (event: DomainEvent) => Promise<void> {
  return async (event) => {
    const after = await db.transaction(async (tx) => {
      const fresh = await tx.execute(sql`insert into event_handled (subscriber, event_id) values (${subscriber}, ${event.id}) on conflict do nothing returning event_id`);
      if ((fresh as unknown as { rows: unknown[] }).rows.length === 0) return undefined;
      return handle(tx as unknown as Db, event);
    });
    if (after) await after();
  };
}
