import { sql, type SQL } from 'drizzle-orm';
import { eventTypes, type EventPayloadOf, type EventTypeName } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { noteEmitted } from './request-events.ts';

/** A database handle or an open transaction of one: anything that runs a statement. */
export type Executor = Pick<Db, 'execute'>;

export interface NewDomainEvent<T extends EventTypeName = EventTypeName> {
  type: T;
  subject: string;
  payload: EventPayloadOf<T>;
}

/**
 * Inserts the events, and a pending delivery for each subscriber that wants their type, in one
 * statement on `tx`: called inside the transaction of the change, an event exists exactly when its
 * change does. A payload the catalogue refuses throws, and the whole change with it.
 */
export async function emit(tx: Executor, ...list: NewDomainEvent[]): Promise<void> {
  if (list.length === 0) return;
  const types: string[] = [];
  const versions: number[] = [];
  const subjects: string[] = [];
  const payloads: string[] = [];
  for (const e of list) {
    const def = eventTypes[e.type];
    types.push(e.type);
    versions.push(def.version);
    subjects.push(e.subject);
    payloads.push(JSON.stringify(def.payload.parse(e.payload)));
  }
  const p = sql.param;
  const result = await tx.execute(
    outboxInsert(sql`select * from unnest(${p(types)}::text[], ${p(versions)}::int[], ${p(subjects)}::text[], ${p(payloads)}::jsonb[]) with ordinality as u(type, version, subject, payload, ord)`, undefined, 'ids'),
  );
  const ids = (result as unknown as { rows: Array<{ ids: Array<string | number> | null }> }).rows[0]?.ids ?? [];
  noteEmitted(ids.map(String));
}

/**
 * The statement that writes events from `source` (columns type, version, subject, payload, ord: ids
 * follow `ord`) and their deliveries, and answers `emitted`, how many events it wrote (or `ids`,
 * theirs, or what the `answer` statement selects). The ingest builds its source in SQL from the rows it changed, so its events cost no
 * round trip.
 */
export function outboxInsert(source: SQL, prefix?: SQL, answer: 'count' | 'ids' | SQL = 'count'): SQL {
  return sql`with ${prefix ? sql`${prefix}, ` : sql``}src as (${source}), emitted as (
      insert into events (type, version, subject, payload)
      select type, version, subject, payload from src order by ord
      returning id, type, subject
    ), delivered as (
      insert into event_deliveries (subscriber, event_id, subject)
      select s.name, e.id, e.subject from emitted e join event_subscribers s on e.type = any(s.types)
    )
    ${answer === 'ids' ? sql`select array_agg(id order by id) as ids from emitted` : answer === 'count' ? sql`select count(*)::int as emitted from emitted` : answer}`;
}
