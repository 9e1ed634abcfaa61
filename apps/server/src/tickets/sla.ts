import { and, isNull, or, sql, type SQL } from 'drizzle-orm';
import { defaultTicketSla, ticketPriorities, type TicketPriority, type TicketSlaBody, type TicketSlaTarget } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { tickets, ticketSla } from './tickets.sql.ts';

/**
 * SLA timers (Zammad-style): each ticket stores its first-response and resolution due times,
 * computed as `created_at + target + sla_paused_s`. While the ticket waits for the customer the
 * clock stops (`sla_paused_at`); on leaving that state the paused time is added to both due times,
 * so "paused" is exact without any job rewriting rows.
 */

export async function slaTargets(db: Db): Promise<TicketSlaTarget[]> {
  const rows = await db.select().from(ticketSla);
  return ticketPriorities.map((priority) => {
    const row = rows.find((r) => r.priority === priority);
    return row ? { priority, firstResponseMinutes: row.firstResponseMinutes, resolutionMinutes: row.resolutionMinutes } : defaultTicketSla.find((d) => d.priority === priority)!;
  });
}

export async function saveSlaTargets(db: Db, body: TicketSlaBody): Promise<TicketSlaTarget[]> {
  const now = new Date();
  for (const t of body.targets) {
    await db
      .insert(ticketSla)
      .values({ ...t, updatedAt: now })
      .onConflictDoUpdate({ target: ticketSla.priority, set: { firstResponseMinutes: t.firstResponseMinutes, resolutionMinutes: t.resolutionMinutes, updatedAt: now } });
  }
  return slaTargets(db);
}

/** Due times of a ticket created at `createdAt` with `pausedS` seconds of pauses so far. */
export function dueTimes(targets: TicketSlaTarget[], priority: TicketPriority, createdAt: Date, pausedS: number) {
  const target = targets.find((t) => t.priority === priority)!;
  const base = createdAt.getTime() + pausedS * 1000;
  return { firstResponseDue: new Date(base + target.firstResponseMinutes * 60_000), resolutionDue: new Date(base + target.resolutionMinutes * 60_000) };
}

/** Seconds of the running pause at `now` (0 when not paused). */
export function runningPauseS(pausedAt: Date | null, now: Date): number {
  return pausedAt ? Math.max(0, Math.round((now.getTime() - pausedAt.getTime()) / 1000)) : 0;
}

/**
 * The columns that end a pause at `now`: both due times move by the paused time. Spread into an
 * UPDATE's `set`; empty when the ticket is not paused.
 */
export function resumeSet(row: { slaPausedAt: Date | null; slaPausedS: number; firstResponseDue: Date | null; resolutionDue: Date | null }, now: Date) {
  if (!row.slaPausedAt) return {};
  const shiftS = runningPauseS(row.slaPausedAt, now);
  const shift = (d: Date | null) => (d ? new Date(d.getTime() + shiftS * 1000) : null);
  return { slaPausedAt: null, slaPausedS: row.slaPausedS + shiftS, firstResponseDue: shift(row.firstResponseDue), resolutionDue: shift(row.resolutionDue) };
}

/**
 * A due time passed while its clock ran: the first response came late (or has not come), or the
 * resolution did. A running pause or the close freezes the comparison at that moment.
 */
export const breachedSql: SQL<boolean> = sql<boolean>`(
  (${tickets.firstResponseDue} is not null and ${tickets.firstResponseDue} < coalesce(${tickets.firstResponseAt}, ${tickets.slaPausedAt}, ${tickets.closedAt}, now()))
  or (${tickets.resolutionDue} is not null and ${tickets.resolutionDue} < coalesce(${tickets.resolvedAt}, ${tickets.slaPausedAt}, ${tickets.closedAt}, now()))
)`;

/** Statuses whose SLA clocks run (pending the customer pauses them; resolved/closed/spam stop them). */
export const RUNNING: Array<'new' | 'open'> = ['new', 'open'];

/** Active tickets past a running due time: each side is a range on a partial index (tickets.sql.ts). */
export function breachingNow(): SQL {
  // Literal statuses, so the planner matches the partial indexes whatever the parameters; the
  // database's now() rather than a parameter, so the list's cached total keeps one key per filter.
  return and(
    sql`${tickets.status} in ('new', 'open')`,
    or(and(isNull(tickets.firstResponseAt), sql`${tickets.firstResponseDue} < now()`), sql`${tickets.resolutionDue} < now()`),
  )!;
}
