import { Readable } from 'node:stream';
import { and, asc, desc, eq, gte, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { TicketFilter, TicketListQuery, TicketPage } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { countMatches } from '../devices/count.ts';
import { csvCell, csvLine } from '../devices/csv.ts';
import { AppError } from '../http/envelope.ts';
import { breachedSql, breachingNow } from './sla.ts';
import { summarySelect, toSummary, type SummaryRow } from './ticket-views.ts';
import { tickets } from './tickets.sql.ts';

/**
 * The staff list and its CSV export. Each filter has an index ending in (last_activity_at, id)
 * (tickets.sql.ts), so latest-activity pages are index ranges; the keyword is PostgreSQL full
 * text on the `search` document (GIN), or a ticket number (`#100042` or `100042`).
 */

const ACTIVE = sql`${tickets.status} in ('new', 'open', 'pending_customer')`;

function conditions(f: TicketFilter, staffId: number): SQL[] {
  const where: SQL[] = [];
  if (f.status) where.push(eq(tickets.status, f.status));
  if (f.priority) where.push(eq(tickets.priority, f.priority));
  if (f.category) where.push(eq(tickets.category, f.category));
  if (f.assigneeId) where.push(eq(tickets.assigneeId, f.assigneeId));
  if (f.sn) where.push(eq(tickets.sn, f.sn));
  if (f.userId) where.push(eq(tickets.userId, f.userId));
  if (f.tag) where.push(sql`${tickets.tags} @> array[${f.tag}]::text[]`);
  if (f.createdFrom) where.push(gte(tickets.createdAt, new Date(f.createdFrom)));
  if (f.createdTo) where.push(lte(tickets.createdAt, new Date(f.createdTo)));
  if (f.slaBreached !== undefined) where.push(f.slaBreached ? breachedSql : sql`not ${breachedSql}`);
  if (f.view === 'active') where.push(ACTIVE);
  if (f.view === 'mine') where.push(eq(tickets.assigneeId, staffId), ACTIVE);
  // Literal statuses so the partial index (tickets_unassigned_activity) matches.
  if (f.view === 'unassigned') where.push(isNull(tickets.assigneeId), ACTIVE);
  if (f.view === 'breaching') where.push(breachingNow());
  if (f.keyword) {
    const number = /^#?(\d{1,9})$/.exec(f.keyword)?.[1];
    const text = sql`${tickets.search} @@ websearch_to_tsquery('simple', ${f.keyword})`;
    where.push(number ? or(eq(tickets.number, Number(number)), text)! : text);
  }
  return where;
}

/** `<ms>_<id>` of the row a page ended on. */
function parseCursor(cursor: string | undefined): { at: Date; id: number } | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const m = /^(\d{1,15})_(\d{1,10})$/.exec(cursor);
  if (!m || Number(m[2]) > 2_147_483_647) throw new AppError('INVALID_CURSOR');
  return { at: new Date(Number(m[1])), id: Number(m[2]) };
}

/** The nearest running due time: first response until answered, then resolution. */
const nextDue = sql`case when ${tickets.status} in ('new', 'open') then coalesce(case when ${tickets.firstResponseAt} is null then ${tickets.firstResponseDue} end, ${tickets.resolutionDue}) end`;

export async function listTickets(db: Db, q: TicketListQuery, staffId: number): Promise<TicketPage> {
  const where = conditions(q, staffId);
  const key = q.sort === '-createdAt' ? tickets.createdAt : tickets.lastActivityAt;
  // The due-time order has no index to walk: it pages by offset only.
  const after = q.sort === 'slaDue' ? undefined : parseCursor(q.cursor);
  const pageWhere = after ? [...where, sql`(${key}, ${tickets.id}) < (${after.at}, ${after.id})`] : where;
  const order = q.sort === 'slaDue' ? [sql`${nextDue} asc nulls last`, asc(tickets.id)] : [desc(key), desc(tickets.id)];
  const [rows, { total, exact }] = await Promise.all([
    summarySelect(db)
      .where(and(...pageWhere))
      .orderBy(...order)
      .limit(q.pageSize + 1)
      .offset(after ? 0 : (q.page - 1) * q.pageSize) as Promise<SummaryRow[]>,
    countMatches(db, () => db.select({ id: tickets.id }).from(tickets).where(and(...where)).$dynamic()),
  ]);
  const page = rows.slice(0, q.pageSize);
  const last = page[page.length - 1]?.ticket;
  const more = rows.length > q.pageSize && last && q.sort !== 'slaDue';
  return { list: page.map(toSummary), total, totalExact: exact, nextCursor: more ? `${(q.sort === '-createdAt' ? last.createdAt : last.lastActivityAt).getTime()}_${last.id}` : null };
}

const header = ['number', 'title', 'category', 'status', 'priority', 'userId', 'userName', 'userEmail', 'sn', 'assignee', 'tags', 'slaFirstResponseDue', 'slaResolutionDue', 'slaBreached', 'lastActivityAt', 'createdAt'];

/** The filtered list as CSV, in batches along the activity index; free text is defused for spreadsheets. */
export function exportTickets(db: Db, filter: TicketFilter, staffId: number): Readable {
  async function* lines() {
    yield '\ufeff' + csvLine(header);
    const where = conditions(filter, staffId);
    let after: { at: Date; id: number } | undefined;
    for (;;) {
      const rows = (await summarySelect(db)
        .where(and(...where, after ? sql`(${tickets.lastActivityAt}, ${tickets.id}) < (${after.at}, ${after.id})` : undefined))
        .orderBy(desc(tickets.lastActivityAt), desc(tickets.id))
        .limit(1000)) as SummaryRow[];
      for (const s of rows.map(toSummary)) {
        yield csvLine([
          csvCell(s.number),
          csvCell(s.title, true),
          csvCell(s.category),
          csvCell(s.status),
          csvCell(s.priority),
          csvCell(s.user.id),
          csvCell(s.user.name, true),
          csvCell(s.user.email, true),
          csvCell(s.sn),
          csvCell(s.assignee?.name ?? '', true),
          csvCell(s.tags.join(' '), true),
          csvCell(s.slaFirstResponseDue),
          csvCell(s.slaResolutionDue),
          csvCell(s.slaBreached),
          csvCell(s.lastActivityAt),
          csvCell(s.createdAt),
        ]);
      }
      if (rows.length < 1000) return;
      const last = rows[rows.length - 1]!.ticket;
      after = { at: last.lastActivityAt, id: last.id };
    }
  }
  return Readable.from(lines());
}
