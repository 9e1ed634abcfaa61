import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import {
  TICKET_REOPEN_DAYS,
  type AppTicket,
  type AppTicketDetail,
  type TicketAttachment,
  type TicketAttachmentType,
  type TicketDetail,
  type TicketEntry,
  type TicketSummary,
} from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { appUsers } from '../end-users/end-users.sql.ts';
import { preparedByShape } from '../db/prepared.ts';
import { AppError } from '../http/envelope.ts';
import { staffUsers } from '../staff/staff.sql.ts';
import { breachedSql } from './sla.ts';
import { ticketAttachments, ticketEntries, ticketHistory, tickets, type TicketAttachmentRow, type TicketRow } from './tickets.sql.ts';

/** How tickets read: staff summaries and details, and the app's view (public entries only). */

const iso = (d: Date | null) => d?.toISOString() ?? null;
const REOPEN_MS = TICKET_REOPEN_DAYS * 86_400_000;

/** The columns of a summary row: the ticket, its user, its assignee and the breach flag. */
export const summaryColumns = {
  ticket: tickets,
  userName: appUsers.name,
  userEmail: appUsers.email,
  assigneeName: staffUsers.name,
  breached: breachedSql,
};
export type SummaryRow = { ticket: TicketRow; userName: string | null; userEmail: string | null; assigneeName: string | null; breached: boolean };

/** `select … from tickets` joined to what a summary names. */
export function summarySelect(db: Db) {
  return db.select(summaryColumns).from(tickets).leftJoin(appUsers, eq(appUsers.id, tickets.userId)).leftJoin(staffUsers, eq(staffUsers.id, tickets.assigneeId));
}

export function toSummary(r: SummaryRow): TicketSummary {
  const t = r.ticket;
  const active = t.status !== 'closed' && t.status !== 'spam';
  return {
    id: t.id,
    number: t.number,
    title: t.title,
    category: t.category,
    user: { id: t.userId, name: r.userName ?? '', email: r.userEmail ?? '' },
    sn: t.sn,
    status: t.status,
    priority: t.priority,
    assignee: t.assigneeId === null ? null : { id: t.assigneeId, name: r.assigneeName ?? '' },
    tags: t.tags,
    slaFirstResponseDue: active && !t.firstResponseAt ? iso(t.firstResponseDue) : null,
    slaResolutionDue: active && !t.resolvedAt ? iso(t.resolutionDue) : null,
    slaPaused: t.slaPausedAt !== null,
    slaBreached: Boolean(r.breached),
    mergedIntoId: t.mergedIntoId,
    lastActivityAt: t.lastActivityAt.toISOString(),
    createdAt: t.createdAt.toISOString(),
  };
}

export function toAttachment(a: TicketAttachmentRow): TicketAttachment {
  return { id: a.id, name: a.name, mime: a.mime as TicketAttachmentType, size: a.size, thumbnail: a.thumbPath !== null };
}

export async function getTicket(db: Db, id: number): Promise<TicketRow> {
  const [row] = await db.select().from(tickets).where(eq(tickets.id, id)).limit(1);
  if (!row) throw new AppError('TICKET_NOT_FOUND');
  return row;
}

/** The user's own ticket; someone else's answers exactly like a missing one (404, never 403). */
export async function ownTicket(db: Db, userId: number, id: number): Promise<TicketRow> {
  const [row] = await db.select().from(tickets).where(and(eq(tickets.id, id), eq(tickets.userId, userId))).limit(1);
  if (!row) throw new AppError('TICKET_NOT_FOUND');
  return row;
}

/** Within the window after resolution, and neither merged nor spam. */
export function canReopen(t: TicketRow, now = new Date()): boolean {
  return (t.status === 'resolved' || t.status === 'closed') && t.mergedIntoId === null && t.resolvedAt !== null && now.getTime() - t.resolvedAt.getTime() <= REOPEN_MS;
}

export function canRate(t: TicketRow): boolean {
  return (t.status === 'resolved' || t.status === 'closed') && t.mergedIntoId === null && t.resolvedAt !== null;
}

export function toAppTicket(t: TicketRow, now = new Date()): AppTicket {
  return {
    id: t.id,
    number: t.number,
    category: t.category,
    title: t.title,
    sn: t.sn,
    // Spam is the platform's business: the user sees a closed ticket.
    status: t.status === 'spam' ? 'closed' : t.status,
    mergedIntoId: t.mergedIntoId,
    rating: t.ratingScore === null || !t.ratedAt ? null : { score: t.ratingScore, comment: t.ratingComment, at: t.ratedAt.toISOString() },
    canRate: canRate(t),
    canReopen: canReopen(t, now),
    createdAt: t.createdAt.toISOString(),
    lastActivityAt: t.lastActivityAt.toISOString(),
  };
}

/** The app's detail: internal notes (and anything attached to them) are filtered in SQL, never sent. */
export async function appTicketDetail(db: Db, t: TicketRow): Promise<AppTicketDetail> {
  const entries = await db
    .select()
    .from(ticketEntries)
    .where(and(eq(ticketEntries.ticketId, t.id), eq(ticketEntries.internal, false)))
    .orderBy(asc(ticketEntries.createdAt), asc(ticketEntries.id));
  const files = await db
    .select({ a: ticketAttachments })
    .from(ticketAttachments)
    .leftJoin(ticketEntries, eq(ticketEntries.id, ticketAttachments.entryId))
    .where(and(eq(ticketAttachments.ticketId, t.id), sql`coalesce(${ticketEntries.internal}, false) = false`))
    .orderBy(asc(ticketAttachments.id));
  return {
    ...toAppTicket(t),
    description: t.description,
    appVersion: t.appVersion,
    os: t.os,
    attachments: files.filter((f) => f.a.entryId === null).map((f) => toAttachment(f.a)),
    entries: entries.map((e) => ({
      id: e.id,
      kind: e.kind,
      authorName: e.kind === 'agent' ? e.authorName : '',
      body: e.body,
      attachments: files.filter((f) => f.a.entryId === e.id).map((f) => toAttachment(f.a)),
      createdAt: e.createdAt.toISOString(),
    })),
  };
}

/** The staff detail's reads, each built once (db/prepared.ts): a detail is opened far more often than it changes shape. */
function detailQueries(db: Db) {
  return {
    ticket: preparedByShape(db, 'ticketDetail', (slot) => summarySelect(db).where(eq(tickets.id, slot('id'))).limit(1)),
    entries: preparedByShape(db, 'ticketEntries', (slot) =>
      db.select().from(ticketEntries).where(eq(ticketEntries.ticketId, slot('id'))).orderBy(asc(ticketEntries.createdAt), asc(ticketEntries.id)),
    ),
    files: preparedByShape(db, 'ticketAttachments', (slot) => db.select().from(ticketAttachments).where(eq(ticketAttachments.ticketId, slot('id'))).orderBy(asc(ticketAttachments.id))),
    history: preparedByShape(db, 'ticketHistory', (slot) => db.select().from(ticketHistory).where(eq(ticketHistory.ticketId, slot('id'))).orderBy(asc(ticketHistory.id))),
    others: preparedByShape(db, 'ticketOthers', (slot) =>
      db
        .select({ id: tickets.id, number: tickets.number, title: tickets.title, status: tickets.status, createdAt: tickets.createdAt })
        .from(tickets)
        .where(and(eq(tickets.userId, slot('userId')), ne(tickets.id, slot('id'))))
        .orderBy(desc(tickets.lastActivityAt), desc(tickets.id))
        .limit(20),
    ),
    merged: preparedByShape(db, 'ticketMerged', (slot) => db.select({ number: tickets.number }).from(tickets).where(eq(tickets.mergedIntoId, slot('id'))).orderBy(asc(tickets.number))),
    locale: preparedByShape(db, 'ticketUserLocale', (slot) => db.select({ locale: appUsers.locale }).from(appUsers).where(eq(appUsers.id, slot('userId')))),
  };
}

export async function staffTicketDetail(db: Db, id: number): Promise<TicketDetail> {
  const q = detailQueries(db);
  const [row] = (await q.ticket.execute({ id })) as SummaryRow[];
  if (!row) throw new AppError('TICKET_NOT_FOUND');
  const t = row.ticket;
  const values = { id, userId: t.userId };
  const [entries, files, history, others, merged, locale] = await Promise.all([
    q.entries.execute(values),
    q.files.execute(values),
    q.history.execute(values),
    q.others.execute(values),
    q.merged.execute(values),
    q.locale.execute(values),
  ]);
  const toEntry = (e: (typeof entries)[number]): TicketEntry => ({
    id: e.id,
    kind: e.kind,
    internal: e.internal,
    channel: e.channel,
    author: e.kind === 'agent' ? (e.authorStaffId === null ? { id: 0, name: e.authorName } : { id: e.authorStaffId, name: e.authorName }) : e.kind === 'customer' ? { id: t.userId, name: row.userName ?? e.authorName } : null,
    body: e.body,
    attachments: files.filter((f) => f.entryId === e.id).map(toAttachment),
    mergedFromNumber: e.mergedFromNumber,
    createdAt: e.createdAt.toISOString(),
  });
  return {
    ...toSummary(row),
    description: t.description,
    appVersion: t.appVersion,
    os: t.os,
    userLocale: locale[0]?.locale ?? '',
    attachments: files.filter((f) => f.entryId === null).map(toAttachment),
    device: t.deviceSnapshot ?? null,
    entries: entries.map(toEntry),
    otherTickets: others.map((o) => ({ ...o, createdAt: o.createdAt.toISOString() })),
    history: history.map((h) => ({
      id: h.id,
      at: h.at.toISOString(),
      actor: h.actorStaffId === null ? null : { id: h.actorStaffId, name: h.actorName },
      actorName: h.actorName,
      field: h.field,
      from: h.from,
      to: h.to,
    })),
    rating: t.ratingScore === null || !t.ratedAt ? null : { score: t.ratingScore, comment: t.ratingComment, at: t.ratedAt.toISOString() },
    firstResponseAt: iso(t.firstResponseAt),
    resolvedAt: iso(t.resolvedAt),
    closedAt: iso(t.closedAt),
    mergedFrom: merged.map((m) => m.number),
  };
}

/** An attachment of a ticket; `publicOnly` (the app) refuses one on an internal note like a missing one. */
export async function findAttachment(db: Db, ticketId: number, attachmentId: number, publicOnly: boolean): Promise<TicketAttachmentRow> {
  const [row] = await db
    .select({ a: ticketAttachments, internal: ticketEntries.internal })
    .from(ticketAttachments)
    .leftJoin(ticketEntries, eq(ticketEntries.id, ticketAttachments.entryId))
    .where(and(eq(ticketAttachments.id, attachmentId), eq(ticketAttachments.ticketId, ticketId)))
    .limit(1);
  if (!row || (publicOnly && row.internal)) throw new AppError('TICKET_ATTACHMENT_NOT_FOUND');
  return row.a;
}

export async function ticketsByIds(db: Db, ids: number[]): Promise<TicketRow[]> {
  return ids.length === 0 ? [] : db.select().from(tickets).where(inArray(tickets.id, ids));
}
