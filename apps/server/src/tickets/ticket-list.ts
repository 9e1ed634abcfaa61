import { Readable } from 'node:stream';
import { and, asc, desc, eq, gte, isNull, lte, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { TicketFilter, TicketListQuery, TicketPage } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { bound, presentKeys, preparedByShape } from '../db/prepared.ts';
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

/** The filter's values as the SQL compares them; the view and the breach flag change the SQL itself. */
function filterValues(f: TicketFilter, staffId: number) {
  const number = f.keyword ? /^#?(\d{1,9})$/.exec(f.keyword)?.[1] : undefined;
  return {
    status: f.status || undefined,
    priority: f.priority || undefined,
    category: f.category || undefined,
    assigneeId: f.assigneeId || undefined,
    sn: f.sn || undefined,
    userId: f.userId || undefined,
    tag: f.tag || undefined,
    createdFrom: f.createdFrom ? new Date(f.createdFrom) : undefined,
    createdTo: f.createdTo ? new Date(f.createdTo) : undefined,
    breached: f.slaBreached === true || undefined,
    notBreached: f.slaBreached === false || undefined,
    view: f.view || undefined,
    staffId: f.view === 'mine' ? staffId : undefined,
    keyword: f.keyword || undefined,
    number: number === undefined ? undefined : Number(number),
  };
}
type FilterValues = ReturnType<typeof filterValues>;

/** Each value is a slot of a prepared query or a bound parameter. */
function conditions(v: FilterValues, value: (name: keyof FilterValues) => SQLWrapper): SQL[] {
  const where: SQL[] = [];
  if (v.status !== undefined) where.push(eq(tickets.status, value('status')));
  if (v.priority !== undefined) where.push(eq(tickets.priority, value('priority')));
  if (v.category !== undefined) where.push(eq(tickets.category, value('category')));
  if (v.assigneeId !== undefined) where.push(eq(tickets.assigneeId, value('assigneeId')));
  if (v.sn !== undefined) where.push(eq(tickets.sn, value('sn')));
  if (v.userId !== undefined) where.push(eq(tickets.userId, value('userId')));
  if (v.tag !== undefined) where.push(sql`${tickets.tags} @> array[${value('tag')}]::text[]`);
  if (v.createdFrom !== undefined) where.push(gte(tickets.createdAt, value('createdFrom')));
  if (v.createdTo !== undefined) where.push(lte(tickets.createdAt, value('createdTo')));
  if (v.breached) where.push(breachedSql);
  if (v.notBreached) where.push(sql`not ${breachedSql}`);
  if (v.view === 'active') where.push(ACTIVE);
  if (v.view === 'mine') where.push(eq(tickets.assigneeId, value('staffId')), ACTIVE);
  // Literal statuses so the partial index (tickets_unassigned_activity) matches.
  if (v.view === 'unassigned') where.push(isNull(tickets.assigneeId), ACTIVE);
  if (v.view === 'breaching') where.push(breachingNow());
  if (v.keyword !== undefined) {
    const text = sql`${tickets.search} @@ websearch_to_tsquery('simple', ${value('keyword')})`;
    where.push(v.number !== undefined ? or(eq(tickets.number, value('number')), text)! : text);
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
  const values = filterValues(q, staffId);
  const key = q.sort === '-createdAt' ? tickets.createdAt : tickets.lastActivityAt;
  // The due-time order has no index to walk: it pages by offset only.
  const after = q.sort === 'slaDue' ? undefined : parseCursor(q.cursor);
  const order = q.sort === 'slaDue' ? [sql`${nextDue} asc nulls last`, asc(tickets.id)] : [desc(key), desc(tickets.id)];
  // The view is part of the shape: `view` is a value only for the count's key.
  const shape = `tickets:${presentKeys(values)}:${q.view ?? ''}:${q.sort}:${after ? 'cursor' : 'offset'}`;
  const pageQuery = preparedByShape(db, shape, (slot) =>
    summarySelect(db)
      .where(and(...conditions(values, slot), after ? sql`(${key}, ${tickets.id}) < (${slot('afterAt')}, ${slot('afterId')})` : undefined))
      .orderBy(...order)
      .limit(slot('limit'))
      .offset(slot('offset')),
  );
  const [rows, { total, exact }] = await Promise.all([
    pageQuery.execute({ ...values, afterAt: after?.at, afterId: after?.id, limit: q.pageSize + 1, offset: after ? 0 : (q.page - 1) * q.pageSize }) as Promise<SummaryRow[]>,
    countMatches(db, {
      shape: `tickets:${presentKeys(values)}:${q.view ?? ''}`,
      values,
      matches: (value) => db.select({ id: tickets.id }).from(tickets).where(and(...conditions(values, value))).$dynamic(),
    }),
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
    const values = filterValues(filter, staffId);
    const where = conditions(values, bound(values));
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
