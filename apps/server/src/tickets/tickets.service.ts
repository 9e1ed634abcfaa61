import { and, eq, sql, type SQL } from 'drizzle-orm';
import {
  eventSubject,
  TICKET_REOPEN_DAYS,
  type AppTicketCreateBody,
  type TicketBulkBody,
  type TicketEntryChannel,
  type TicketStatus,
  type TicketUpdateBody,
} from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { emit, type Executor } from '../events/emit.ts';
import { AppError } from '../http/envelope.ts';
import { staffUsers } from '../staff/staff.sql.ts';
import { discard, type StagedFile } from './attachments.ts';
import { dueTimes, resumeSet, slaTargets } from './sla.ts';
import { canRate, canReopen, getTicket, ticketsByIds } from './ticket-views.ts';
import { ticketAttachments, ticketEntries, ticketHistory, tickets, type TicketRow } from './tickets.sql.ts';

/**
 * Ticket writes. Each action is one transaction: the entry, the ticket's new state (status, SLA
 * clocks, search document, last activity) and its history row land together or not at all.
 * Text is stored as typed; it is only ever shown as text.
 */

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Insert = typeof tickets.$inferInsert;
/** Columns of an UPDATE: values, or SQL (the search document grows in place). */
type Set = { [K in keyof Insert]?: Insert[K] | SQL };

/** Who acts: a staff member, the customer, or the platform (name only). */
export interface Actor {
  staffId: number | null;
  name: string;
}

/** Milliseconds only: list cursors name a row by these times exactly (tickets.sql.ts). */
const now = () => new Date(Math.floor(Date.now()));

/** The full-text document grows by each public text (title, description, public entries). */
const searchOf = (text: string) => sql`to_tsvector('simple', ${text})`;
const appendSearch = (text: string) => sql`${tickets.search} || to_tsvector('simple', ${text})`;

async function history(tx: Tx | Db, ticketId: number, actor: Actor, field: 'status' | 'priority' | 'assignee' | 'tags' | 'merge' | 'rating' | 'reopen', from: string, to: string, at: Date) {
  await tx.insert(ticketHistory).values({ ticketId, at, actorStaffId: actor.staffId, actorName: actor.name, field, from, to });
}

/**
 * The columns a status change sets, with the SLA clocks: entering pending_customer pauses them,
 * leaving it adds the paused time to the due times; resolving stops the resolution clock; a
 * reopen counts the time it spent resolved or closed as paused.
 */
export function statusSet(row: TicketRow, to: TicketStatus, at: Date): Set {
  const set: Set = { status: to };
  const paused = row.status === 'pending_customer' && to !== 'pending_customer' ? resumeSet(row, at) : {};
  Object.assign(set, paused);
  if (to === 'pending_customer' && !row.slaPausedAt) set.slaPausedAt = at;
  const finished = row.status === 'resolved' || row.status === 'closed' || row.status === 'spam';
  if (finished && (to === 'open' || to === 'pending_customer')) {
    const since = row.resolvedAt ?? row.closedAt;
    const shiftS = since ? Math.max(0, Math.round((at.getTime() - since.getTime()) / 1000)) : 0;
    const shift = (d: Date | null) => (d ? new Date(d.getTime() + shiftS * 1000) : null);
    Object.assign(set, { resolvedAt: null, closedAt: null, slaPausedS: row.slaPausedS + shiftS, firstResponseDue: shift(row.firstResponseDue), resolutionDue: shift(row.resolutionDue) });
  }
  if (to === 'resolved') set.resolvedAt = at;
  if (to === 'closed' || to === 'spam') set.closedAt = at;
  return set;
}

/** Staff transitions (the customer's are reply and reopen). A merged ticket stays closed. */
const staffTransitions: Record<TicketStatus, readonly TicketStatus[]> = {
  new: ['open', 'pending_customer', 'resolved', 'closed', 'spam'],
  open: ['pending_customer', 'resolved', 'closed', 'spam'],
  pending_customer: ['open', 'resolved', 'closed', 'spam'],
  resolved: ['open', 'closed', 'spam'],
  closed: ['open'],
  spam: ['open'],
};

function requireTransition(row: TicketRow, to: TicketStatus) {
  if (row.status === to) return;
  if (row.mergedIntoId !== null || !staffTransitions[row.status].includes(to)) throw new AppError('TICKET_STATUS', { from: row.status, to });
}

const isFinal = (row: TicketRow) => row.status === 'closed' || row.status === 'spam';

type Via = 'update' | 'reply' | 'reopen' | 'merge' | 'expiry';

/** `ticket.status_changed`, in the transaction of the change. */
async function statusChanged(tx: Executor, row: TicketRow, to: TicketStatus, via: Via, actor: string, at: Date, assigneeId = row.assigneeId) {
  if (row.status === to) return;
  await emit(tx, {
    type: 'ticket.status_changed',
    subject: eventSubject.ticket(row.id),
    payload: { ticketId: row.id, number: row.number, title: row.title, from: row.status, to, via, actor, assigneeId, at: at.toISOString() },
  });
}

/** `ticket.replied`, in the transaction of the entry. */
async function replied(tx: Executor, row: TicketRow, by: 'customer' | 'staff', channel: TicketEntryChannel, internal: boolean, author: string, at: Date) {
  await emit(tx, {
    type: 'ticket.replied',
    subject: eventSubject.ticket(row.id),
    payload: { ticketId: row.id, number: row.number, title: row.title, by, channel, internal, author, assigneeId: row.assigneeId, at: at.toISOString() },
  });
}

// ---------------------------------------------------------------- customer

export interface NewTicket {
  userId: number;
  /** How staff see the customer: their name, else their address. */
  userName: string;
  body: AppTicketCreateBody;
  appVersion: string;
  os: string;
  snapshot: TicketRow['deviceSnapshot'];
  files: StagedFile[];
}

/** Files a ticket with its attachments; the stored files are removed if the rows cannot be written. */
export async function createTicket(db: Db, dataDir: string, t: NewTicket): Promise<TicketRow> {
  const at = now();
  const targets = await slaTargets(db);
  const dues = dueTimes(targets, 'normal', at, 0);
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(tickets)
        .values({
          userId: t.userId,
          sn: t.body.sn ?? null,
          category: t.body.category,
          title: t.body.title,
          description: t.body.description,
          appVersion: t.appVersion,
          os: t.os,
          priority: 'normal',
          deviceSnapshot: t.snapshot,
          ...dues,
          search: searchOf(`${t.body.title}\n${t.body.description}`),
          lastActivityAt: at,
          createdAt: at,
        })
        .returning();
      if (t.files.length > 0) {
        await tx.insert(ticketAttachments).values(t.files.map((f) => ({ ticketId: row!.id, name: f.name, mime: f.mime, size: f.size, filePath: f.relative, thumbPath: f.thumbRelative, sha256: f.sha256 })));
      }
      await emit(tx, {
        type: 'ticket.created',
        subject: eventSubject.ticket(row!.id),
        payload: { ticketId: row!.id, number: row!.number, title: row!.title, category: row!.category, sn: row!.sn, userName: t.userName, at: at.toISOString() },
      });
      return row!;
    });
  } catch (err) {
    await discard(dataDir, t.files);
    throw err;
  }
}

/**
 * The customer answers (in the app or by mail). Pending → open; resolved within the window →
 * reopened; closed (or spam, or merged) → refused.
 */
export async function customerReply(db: Db, row: TicketRow, userName: string, body: string, channel: TicketEntryChannel, shownAs = userName): Promise<TicketRow> {
  const at = now();
  if (isFinal(row)) throw new AppError('TICKET_CLOSED');
  if (row.status === 'resolved' && !canReopen(row, at)) throw new AppError('TICKET_REOPEN_EXPIRED', { days: TICKET_REOPEN_DAYS });
  const actor: Actor = { staffId: null, name: userName };
  return db.transaction(async (tx) => {
    await tx.insert(ticketEntries).values({ ticketId: row.id, kind: 'customer', channel, authorName: userName, body, createdAt: at });
    const set: Set = row.status === 'pending_customer' || row.status === 'resolved' ? statusSet(row, 'open', at) : {};
    if (row.status === 'resolved') await history(tx, row.id, actor, 'reopen', row.status, 'open', at);
    else if (set.status) await history(tx, row.id, actor, 'status', row.status, 'open', at);
    const [after] = await tx
      .update(tickets)
      .set({ ...set, search: appendSearch(body), lastActivityAt: at, updatedAt: at })
      .where(eq(tickets.id, row.id))
      .returning();
    await replied(tx, row, 'customer', channel, false, shownAs, at);
    if (set.status) await statusChanged(tx, row, 'open', row.status === 'resolved' ? 'reopen' : 'reply', shownAs, at);
    return after!;
  });
}

export async function reopenTicket(db: Db, row: TicketRow, userName: string, reason: string, shownAs = userName): Promise<TicketRow> {
  const at = now();
  if (row.mergedIntoId !== null || row.status === 'spam') throw new AppError('TICKET_CLOSED');
  if (!canReopen(row, at)) throw new AppError('TICKET_REOPEN_EXPIRED', { days: TICKET_REOPEN_DAYS });
  const actor: Actor = { staffId: null, name: userName };
  return db.transaction(async (tx) => {
    if (reason) await tx.insert(ticketEntries).values({ ticketId: row.id, kind: 'customer', channel: 'app', authorName: userName, body: reason, createdAt: at });
    await history(tx, row.id, actor, 'reopen', row.status, 'open', at);
    const [after] = await tx
      .update(tickets)
      .set({ ...statusSet(row, 'open', at), ...(reason ? { search: appendSearch(reason) } : {}), lastActivityAt: at, updatedAt: at })
      .where(eq(tickets.id, row.id))
      .returning();
    await statusChanged(tx, row, 'open', 'reopen', shownAs, at);
    return after!;
  });
}

export async function rateTicket(db: Db, row: TicketRow, userName: string, score: number, comment: string): Promise<TicketRow> {
  if (!canRate(row)) throw new AppError('TICKET_RATING_NOT_ALLOWED');
  const at = now();
  return db.transaction(async (tx) => {
    await history(tx, row.id, { staffId: null, name: userName }, 'rating', row.ratingScore === null ? '' : String(row.ratingScore), String(score), at);
    const [after] = await tx.update(tickets).set({ ratingScore: score, ratingComment: comment, ratedAt: at, updatedAt: at }).where(eq(tickets.id, row.id)).returning();
    return after!;
  });
}

// ---------------------------------------------------------------- staff

/** A public reply (first response, status) or an internal note. Closed and spam tickets take neither. */
export async function staffReply(db: Db, row: TicketRow, actor: Actor, body: { body: string; internal: boolean; status?: TicketStatus }): Promise<TicketRow> {
  if (isFinal(row)) throw new AppError('TICKET_CLOSED');
  const at = now();
  // A public answer opens a new ticket unless the agent chose the status.
  const to = body.status ?? (!body.internal && row.status === 'new' ? 'open' : row.status);
  requireTransition(row, to);
  return db.transaction(async (tx) => {
    await tx.insert(ticketEntries).values({ ticketId: row.id, kind: 'agent', internal: body.internal, channel: 'console', authorStaffId: actor.staffId, authorName: actor.name, body: body.body, createdAt: at });
    const set: Set = to === row.status ? {} : statusSet(row, to, at);
    if (set.status) await history(tx, row.id, actor, 'status', row.status, to, at);
    if (!body.internal) {
      set.search = appendSearch(body.body);
      if (!row.firstResponseAt) set.firstResponseAt = at;
    }
    const [after] = await tx
      .update(tickets)
      .set({ ...set, lastActivityAt: at, updatedAt: at })
      .where(eq(tickets.id, row.id))
      .returning();
    await replied(tx, row, 'staff', 'console', body.internal, actor.name, at);
    await statusChanged(tx, row, to, 'reply', actor.name, at);
    return after!;
  });
}

async function requireAssignee(db: Db | Tx, id: number): Promise<string> {
  const [s] = await db.select({ name: staffUsers.name }).from(staffUsers).where(and(eq(staffUsers.id, id), eq(staffUsers.status, 'active')));
  if (!s) throw new AppError('TICKET_ASSIGNEE_INVALID');
  return s.name;
}

async function staffName(db: Db | Tx, id: number | null): Promise<string> {
  if (id === null) return '';
  const [s] = await db.select({ name: staffUsers.name }).from(staffUsers).where(eq(staffUsers.id, id));
  return s?.name ?? `#${id}`;
}

/** Status, priority (due times recomputed from the new targets), assignee and tags, each in the history. */
export async function updateTicket(db: Db, id: number, actor: Actor, body: TicketUpdateBody): Promise<{ before: TicketRow; after: TicketRow }> {
  const row = await getTicket(db, id);
  const at = now();
  if (body.status !== undefined) requireTransition(row, body.status);
  const assigneeName = body.assigneeId ? await requireAssignee(db, body.assigneeId) : '';
  // Read before the transaction: PGlite has one connection, and the transaction holds it.
  const targets = body.priority !== undefined ? await slaTargets(db) : [];
  const after = await db.transaction(async (tx) => {
    let set: Set = {};
    if (body.status !== undefined && body.status !== row.status) {
      set = statusSet(row, body.status, at);
      await history(tx, id, actor, 'status', row.status, body.status, at);
    }
    if (body.priority !== undefined && body.priority !== row.priority) {
      const dues = dueTimes(targets, body.priority, row.createdAt, (set.slaPausedS as number | undefined) ?? row.slaPausedS);
      Object.assign(set, { priority: body.priority, ...dues });
      await history(tx, id, actor, 'priority', row.priority, body.priority, at);
    }
    if (body.assigneeId !== undefined && body.assigneeId !== row.assigneeId) {
      set.assigneeId = body.assigneeId;
      await history(tx, id, actor, 'assignee', await staffName(tx, row.assigneeId), body.assigneeId === null ? '' : assigneeName, at);
    }
    if (body.tags !== undefined) {
      const tags = [...new Set(body.tags)];
      if (tags.join('\u0000') !== row.tags.join('\u0000')) {
        set.tags = tags;
        await history(tx, id, actor, 'tags', row.tags.join(', '), tags.join(', '), at);
      }
    }
    if (Object.keys(set).length === 0) return row;
    const [updated] = await tx
      .update(tickets)
      .set({ ...set, lastActivityAt: at, updatedAt: at })
      .where(eq(tickets.id, id))
      .returning();
    if (body.status !== undefined) await statusChanged(tx, row, body.status, 'update', actor.name, at, updated!.assigneeId);
    return updated!;
  });
  return { before: row, after };
}

/** Assign or close many: each ticket on its own rules; those that cannot change are skipped. */
export async function bulkUpdate(db: Db, actor: Actor, body: TicketBulkBody): Promise<{ updated: number[]; skipped: number[] }> {
  if (body.action === 'assign' && body.assigneeId !== null) await requireAssignee(db, body.assigneeId);
  const rows = await ticketsByIds(db, [...new Set(body.ids)]);
  const updated: number[] = [];
  const skipped: number[] = body.ids.filter((id) => !rows.some((r) => r.id === id));
  for (const row of rows) {
    const change: TicketUpdateBody = body.action === 'assign' ? { assigneeId: body.assigneeId } : { status: 'closed' };
    if (body.action === 'close' && (isFinal(row) || row.mergedIntoId !== null)) {
      skipped.push(row.id);
      continue;
    }
    if (body.action === 'assign' && row.assigneeId === body.assigneeId) {
      skipped.push(row.id);
      continue;
    }
    await updateTicket(db, row.id, actor, change);
    updated.push(row.id);
  }
  return { updated, skipped };
}

/**
 * Merges `source` into `target` (same user): the source's description becomes a customer entry
 * in the target, its thread and files move, a system entry in each names the other, and the
 * source closes with `merged_into_id`.
 */
export async function mergeTickets(db: Db, sourceId: number, targetId: number, actor: Actor): Promise<{ source: TicketRow; target: TicketRow }> {
  if (sourceId === targetId) throw new AppError('TICKET_MERGE_SELF');
  const source = await getTicket(db, sourceId);
  const target = await getTicket(db, targetId);
  for (const t of [source, target]) if (isFinal(t) || t.mergedIntoId !== null) throw new AppError('TICKET_MERGE_TARGET', { number: t.number });
  if (source.userId !== target.userId) throw new AppError('TICKET_MERGE_OTHER_USER');
  const at = now();
  await db.transaction(async (tx) => {
    const [moved] = await tx
      .insert(ticketEntries)
      .values({ ticketId: target.id, kind: 'customer', channel: 'app', authorName: '', body: `${source.title}\n\n${source.description}`, mergedFromNumber: source.number, createdAt: source.createdAt })
      .returning({ id: ticketEntries.id });
    await tx.update(ticketAttachments).set({ ticketId: target.id, entryId: moved!.id }).where(and(eq(ticketAttachments.ticketId, source.id), sql`${ticketAttachments.entryId} is null`));
    await tx.update(ticketAttachments).set({ ticketId: target.id }).where(eq(ticketAttachments.ticketId, source.id));
    await tx.update(ticketEntries).set({ ticketId: target.id, mergedFromNumber: source.number }).where(and(eq(ticketEntries.ticketId, source.id), sql`${ticketEntries.id} <> ${moved!.id}`));
    await tx.insert(ticketEntries).values([
      { ticketId: source.id, kind: 'system', channel: 'system', authorName: actor.name, body: `merged into #${target.number}`, createdAt: at },
      { ticketId: target.id, kind: 'system', channel: 'system', authorName: actor.name, body: `#${source.number} merged into this ticket`, createdAt: at },
    ]);
    await history(tx, source.id, actor, 'merge', `#${source.number}`, `#${target.number}`, at);
    await history(tx, target.id, actor, 'merge', `#${source.number}`, `#${target.number}`, at);
    await tx
      .update(tickets)
      .set({ ...statusSet(source, 'closed', at), mergedIntoId: target.id, lastActivityAt: at, updatedAt: at })
      .where(eq(tickets.id, source.id));
    await statusChanged(tx, source, 'closed', 'merge', actor.name, at);
    await tx
      .update(tickets)
      .set({ search: sql`${tickets.search} || ${source.search}::tsvector`, lastActivityAt: at, updatedAt: at })
      .where(eq(tickets.id, target.id));
  });
  return { source: await getTicket(db, source.id), target: await getTicket(db, target.id) };
}

/** Resolved tickets close by themselves once the reopen window has passed. */
export async function closeExpired(db: Db, at = now()): Promise<number> {
  const cutoff = new Date(at.getTime() - TICKET_REOPEN_DAYS * 86_400_000);
  return db.transaction(async (tx) => {
    const closed = await tx
      .update(tickets)
      .set({ status: 'closed', closedAt: at, updatedAt: at })
      .where(and(eq(tickets.status, 'resolved'), sql`${tickets.resolvedAt} < ${cutoff}`))
      .returning();
    if (closed.length === 0) return 0;
    await tx.insert(ticketHistory).values(closed.map((c) => ({ ticketId: c.id, at, actorName: 'system', field: 'status' as const, from: 'resolved', to: 'closed' })));
    for (const c of closed) await statusChanged(tx, { ...c, status: 'resolved' }, 'closed', 'expiry', 'system', at);
    return closed.length;
  });
}
