import { sql } from 'drizzle-orm';
import { eventSubject } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { emit } from '../events/emit.ts';

interface Breach {
  ticket_id: number;
  clock: 'first_response' | 'resolution';
  due_at: string | Date;
  number: number;
  title: string;
  assignee_id: number | null;
}

/**
 * Records the running SLA clocks that passed their due time since the last look, and writes a
 * `ticket.sla_breached` event for each in the same transaction: every node may run this, each
 * breach is told once. The clocks run while a ticket is new or open (pending the customer pauses
 * them); the first-response clock until the first public answer.
 */
export async function recordSlaBreaches(db: Db, at = new Date()): Promise<number> {
  return db.transaction(async (tx) => {
    const result = await tx.execute(sql`
      with due as (
        select id as ticket_id, 'first_response' as clock, first_response_due as due_at from tickets
        where first_response_at is null and status in ('new', 'open') and first_response_due < ${at}
        union all
        select id, 'resolution', resolution_due from tickets where status in ('new', 'open') and resolution_due < ${at}
      ), fresh as (
        insert into ticket_sla_breaches (ticket_id, clock, due_at) select ticket_id, clock, due_at from due
        on conflict do nothing returning ticket_id, clock, due_at
      )
      select f.ticket_id, f.clock, f.due_at, t.number, t.title, t.assignee_id from fresh f join tickets t on t.id = f.ticket_id
      order by f.due_at, f.ticket_id`);
    const breaches = (result as unknown as { rows: Breach[] }).rows;
    await emit(
      tx,
      ...breaches.map((b) => ({
        type: 'ticket.sla_breached' as const,
        subject: eventSubject.ticket(b.ticket_id),
        payload: { ticketId: b.ticket_id, number: b.number, title: b.title, clock: b.clock, dueAt: new Date(b.due_at).toISOString(), assigneeId: b.assignee_id },
      })),
    );
    return breaches.length;
  });
}
