import { sql } from 'drizzle-orm';
import type { DomainEvent } from '@mowerline/contract';
import type { Db } from '../db/client.ts';

/**
 * Wraps a subscriber whose effects are all in this database (the bell, counts): the effects and
 * the record of the event's id commit in one transaction, so a redelivery (a node that died after
 * handling, before acknowledging) is dropped by id and nothing happens twice.
 */
export function onceById(db: Db, subscriber: string, handle: (tx: Db, event: DomainEvent) => Promise<void>): (event: DomainEvent) => Promise<void> {
  return (event) =>
    db.transaction(async (tx) => {
      const fresh = await tx.execute(sql`insert into event_handled (subscriber, event_id) values (${subscriber}, ${event.id}) on conflict do nothing returning event_id`);
      if ((fresh as unknown as { rows: unknown[] }).rows.length === 0) return;
      await handle(tx as unknown as Db, event);
    });
}
