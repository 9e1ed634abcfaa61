import { and, desc, eq, gte, inArray, lte, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { eventCatalogue, type DeviceEvent, type EventCount, type EventListQuery, type Locale } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { emit } from '../events/emit.ts';
import { pageOffset } from '../db/helpers.ts';
import { bound, presentKeys, preparedByShape } from '../db/prepared.ts';
import type { Principal } from '../http/auth.ts';
import { countMatches } from './count.ts';
import { deviceEvents, type DeviceEventRow } from './devices.sql.ts';

export function codeText(code: string, locale: Locale): string {
  return eventCatalogue[code]?.[locale] ?? '';
}

export function toDeviceEvent(row: DeviceEventRow, locale: Locale): DeviceEvent {
  return {
    id: row.id,
    sn: row.sn,
    code: row.code,
    codeText: codeText(row.code, locale),
    severity: row.severity,
    status: row.status,
    message: row.message,
    context: row.context,
    occurrences: row.occurrences,
    firstAt: row.firstAt.toISOString(),
    lastAt: row.lastAt.toISOString(),
    ackBy: row.ackByName,
    ackAt: row.ackAt?.toISOString() ?? null,
    ackComment: row.ackComment,
    clearedBy: row.clearedByName,
    clearedAt: row.clearedAt?.toISOString() ?? null,
    clearComment: row.clearComment,
  };
}

/** The filter's values as the SQL compares them. */
function filterValues(q: Partial<EventListQuery>) {
  return {
    sn: q.sn || undefined,
    code: q.code || undefined,
    severity: q.severity || undefined,
    status: q.status || undefined,
    from: q.from ? new Date(q.from) : undefined,
    to: q.to ? new Date(q.to) : undefined,
  };
}
type FilterValues = ReturnType<typeof filterValues>;

/** Each value is a slot of a prepared query or a bound parameter. */
function conditions(v: FilterValues, value: (name: keyof FilterValues) => SQLWrapper): SQL | undefined {
  const c: SQL[] = [];
  if (v.sn !== undefined) c.push(eq(deviceEvents.sn, value('sn')));
  if (v.code !== undefined) c.push(eq(deviceEvents.code, value('code')));
  if (v.severity !== undefined) c.push(eq(deviceEvents.severity, value('severity')));
  if (v.status !== undefined) c.push(eq(deviceEvents.status, value('status')));
  if (v.from !== undefined) c.push(gte(deviceEvents.lastAt, value('from')));
  if (v.to !== undefined) c.push(lte(deviceEvents.lastAt, value('to')));
  return c.length > 0 ? and(...c) : undefined;
}

function eventFilter(q: Partial<EventListQuery>): SQL | undefined {
  const values = filterValues(q);
  return conditions(values, bound(values));
}

/** Newest last occurrence first. */
export async function listEvents(db: Db, q: EventListQuery, locale: Locale) {
  const values = filterValues(q);
  const page = preparedByShape(db, `events:${presentKeys(values)}`, (slot) =>
    db
      .select()
      .from(deviceEvents)
      .where(conditions(values, slot))
      .orderBy(desc(deviceEvents.lastAt), desc(deviceEvents.id))
      .limit(slot('limit'))
      .offset(slot('offset')),
  );
  const [rows, { total, exact }] = await Promise.all([
    page.execute({ ...values, limit: q.pageSize, offset: pageOffset(q) }),
    countMatches(db, {
      shape: `events:${presentKeys(values)}`,
      values,
      matches: (value) => db.select({ one: deviceEvents.id }).from(deviceEvents).where(conditions(values, value)).$dynamic(),
    }),
  ]);
  return { list: rows.map((r) => toDeviceEvent(r, locale)), total, totalExact: exact };
}

export async function recentEvents(db: Db, sn: string, locale: Locale, limit = 10): Promise<DeviceEvent[]> {
  const recent = preparedByShape(db, 'recentEvents', (slot) =>
    db.select().from(deviceEvents).where(eq(deviceEvents.sn, slot('sn'))).orderBy(desc(deviceEvents.lastAt), desc(deviceEvents.id)).limit(slot('limit')),
  );
  const rows = await recent.execute({ sn, limit });
  return rows.map((r) => toDeviceEvent(r, locale));
}

/**
 * One lifecycle step for many events: acknowledge (from active) or clear (from active or
 * acknowledged). Events already past that step, or unknown, are reported as skipped.
 */
export async function advanceEvents(db: Db, step: 'ack' | 'clear', ids: number[], who: Principal, comment = '') {
  const now = new Date();
  const updated = await db.transaction(async (tx) => {
    const rows =
      step === 'ack'
        ? await tx
          .update(deviceEvents)
          .set({ status: 'acknowledged', ackBy: who.id, ackByName: who.username, ackAt: now, ackComment: comment })
          .where(and(inArray(deviceEvents.id, ids), eq(deviceEvents.status, 'active')))
          .returning({ id: deviceEvents.id, sn: deviceEvents.sn, code: deviceEvents.code })
        : await tx
          .update(deviceEvents)
          .set({ status: 'cleared', clearedBy: who.id, clearedByName: who.username, clearedAt: now, clearComment: comment })
          .where(and(inArray(deviceEvents.id, ids), inArray(deviceEvents.status, ['active', 'acknowledged'])))
          .returning({ id: deviceEvents.id, sn: deviceEvents.sn, code: deviceEvents.code });
    const type = step === 'ack' ? ('device.event.acknowledged' as const) : ('device.event.cleared' as const);
    await emit(tx, ...rows.map((r) => ({ type, subject: r.sn, payload: { sn: r.sn, eventId: r.id, code: r.code, by: who.username } })));
    return rows;
  });
  const done = new Set(updated.map((r) => r.id));
  return { updated: ids.filter((id) => done.has(id)), skipped: [...new Set(ids)].filter((id) => !done.has(id)) };
}

/** Events per code over the last occurrence window; the severity is the one reported last. */
export async function eventCounts(db: Db, q: { from?: string; to?: string; severity?: EventListQuery['severity'] }, locale: Locale): Promise<EventCount[]> {
  const rows = await db
    .select({
      code: deviceEvents.code,
      severity: sql<DeviceEvent['severity']>`(array_agg(${deviceEvents.severity} order by ${deviceEvents.lastAt} desc))[1]`,
      total: sql<number>`count(*)::int`,
      active: sql<number>`(count(*) filter (where ${deviceEvents.status} = 'active'))::int`,
      acknowledged: sql<number>`(count(*) filter (where ${deviceEvents.status} = 'acknowledged'))::int`,
      cleared: sql<number>`(count(*) filter (where ${deviceEvents.status} = 'cleared'))::int`,
    })
    .from(deviceEvents)
    .where(eventFilter(q))
    .groupBy(deviceEvents.code)
    .orderBy(desc(sql`count(*)`), deviceEvents.code);
  return rows.map((r) => ({ ...r, codeText: codeText(r.code, locale) }));
}
