import { Readable } from 'node:stream';
import { and, asc, desc, eq, gte, like, lte, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import {
  taskFaultText,
  type DeviceZones,
  type RunFilter,
  type RunListQuery,
  type TaskFaultQuery,
  type TaskFaultReport,
  type TaskRun,
  type TaskRunDetail,
  type Zone,
} from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { prefixPattern } from '../db/helpers.ts';
import { bound, presentKeys, preparedByShape } from '../db/prepared.ts';
import { countMatches } from '../devices/count.ts';
import { csvCell, csvLine } from '../devices/csv.ts';
import { devices } from '../devices/devices.sql.ts';
import { AppError } from '../http/envelope.ts';
import { localDate, localMidnight } from './statistics.service.ts';
import { taskRunEvents, taskRuns, taskZones, type TaskRunRow } from './tasks.sql.ts';

export function toRun(r: TaskRunRow): TaskRun {
  return {
    id: r.id,
    sn: r.sn,
    runId: r.runId,
    modelCode: r.modelCode,
    firmware: r.firmware,
    ownerEmail: r.owner,
    trigger: r.trigger,
    scheduleId: r.scheduleId,
    scheduleName: r.scheduleName,
    status: r.status,
    result: r.result,
    faultCode: r.faultCode,
    zones: r.zones,
    plannedAreaM2: r.plannedAreaM2,
    progressPercent: r.progressPercent,
    areaM2: r.areaM2,
    durationS: r.durationS,
    bladeOnS: r.bladeOnS,
    distanceM: r.distanceM,
    pauses: r.pauses,
    resumesId: r.resumesId,
    startedAt: r.startedAt.toISOString(),
    endedAt: r.endedAt?.toISOString() ?? null,
    lastReportAt: r.lastReportAt.toISOString(),
  };
}

/** The filter's values as the SQL compares them; a short SN or an owner without `@` is a prefix. */
function filterValues(f: RunFilter) {
  const owner = f.owner?.toLowerCase();
  return {
    sn: f.sn && f.sn.length >= 4 ? f.sn : undefined,
    snPrefix: f.sn && f.sn.length < 4 ? prefixPattern(f.sn) : undefined,
    owner: owner?.includes('@') ? owner : undefined,
    ownerPrefix: owner && !owner.includes('@') ? prefixPattern(owner) : undefined,
    model: f.model || undefined,
    trigger: f.trigger || undefined,
    result: f.result || undefined,
    status: f.status || undefined,
    faultCode: f.faultCode || undefined,
    scheduleId: f.scheduleId || undefined,
    from: f.from ? new Date(f.from) : undefined,
    to: f.to ? new Date(f.to) : undefined,
  };
}
type FilterValues = ReturnType<typeof filterValues>;

/** Each value is a slot of a prepared query or a bound parameter. */
function conditions(v: FilterValues, value: (name: keyof FilterValues) => SQLWrapper): SQL[] {
  const where: SQL[] = [];
  if (v.sn !== undefined) where.push(eq(taskRuns.sn, value('sn')));
  if (v.snPrefix !== undefined) where.push(like(taskRuns.sn, value('snPrefix')));
  if (v.owner !== undefined) where.push(eq(taskRuns.owner, value('owner')));
  if (v.ownerPrefix !== undefined) where.push(like(taskRuns.owner, value('ownerPrefix')));
  if (v.model !== undefined) where.push(eq(taskRuns.modelCode, value('model')));
  if (v.trigger !== undefined) where.push(eq(taskRuns.trigger, value('trigger')));
  if (v.result !== undefined) where.push(eq(taskRuns.result, value('result')));
  if (v.status !== undefined) where.push(eq(taskRuns.status, value('status')));
  if (v.faultCode !== undefined) where.push(eq(taskRuns.faultCode, value('faultCode')));
  if (v.scheduleId !== undefined) where.push(eq(taskRuns.scheduleId, value('scheduleId')));
  if (v.from !== undefined) where.push(gte(taskRuns.startedAt, value('from')));
  if (v.to !== undefined) where.push(lte(taskRuns.startedAt, value('to')));
  return where;
}

/** `<started ms>_<id>`: keyset on (started_at, id), newest first. */
function parseCursor(cursor: string | undefined): { at: Date; id: number } | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const m = /^(\d{1,15})_(\d{1,10})$/.exec(cursor);
  if (!m) throw new AppError('INVALID_CURSOR');
  return { at: new Date(Number(m[1])), id: Number(m[2]) };
}
const after = (at: SQLWrapper, id: SQLWrapper) => or(sql`${taskRuns.startedAt} < ${at}`, and(eq(taskRuns.startedAt, at), sql`${taskRuns.id} < ${id}`))!;

export async function listRuns(db: Db, q: RunListQuery) {
  const values = filterValues(q);
  const cursor = parseCursor(q.cursor);
  const pageQuery = preparedByShape(db, `taskRuns:${presentKeys(values)}:${cursor ? 'cursor' : 'offset'}`, (slot) =>
    db
      .select()
      .from(taskRuns)
      .where(and(...conditions(values, slot), cursor ? after(slot('afterAt'), slot('afterId')) : undefined))
      .orderBy(desc(taskRuns.startedAt), desc(taskRuns.id))
      .limit(slot('limit'))
      .offset(slot('offset')),
  );
  const [rows, { total, exact }] = await Promise.all([
    pageQuery.execute({ ...values, afterAt: cursor?.at, afterId: cursor?.id, limit: q.pageSize + 1, offset: cursor ? 0 : (q.page - 1) * q.pageSize }),
    countMatches(db, {
      shape: `taskRuns:${presentKeys(values)}`,
      values,
      matches: (value) => db.select({ id: taskRuns.id }).from(taskRuns).where(and(...conditions(values, value))).$dynamic(),
    }),
  ]);
  const page = rows.slice(0, q.pageSize);
  const last = page[page.length - 1];
  return { list: page.map(toRun), total, totalExact: exact, nextCursor: rows.length > q.pageSize && last ? `${last.startedAt.getTime()}_${last.id}` : null };
}

export async function recentRuns(db: Db, sn: string, limit: number): Promise<TaskRun[]> {
  const rows = await db.select().from(taskRuns).where(eq(taskRuns.sn, sn)).orderBy(desc(taskRuns.startedAt), desc(taskRuns.id)).limit(limit);
  return rows.map(toRun);
}

const exportHeader = ['id', 'sn', 'runId', 'model', 'firmware', 'owner', 'trigger', 'scheduleId', 'schedule', 'status', 'result', 'faultCode', 'zones', 'areaM2', 'durationS', 'bladeOnS', 'distanceM', 'pauses', 'resumesId', 'startedAt', 'endedAt'];

export function exportRuns(db: Db, f: RunFilter): Readable {
  async function* lines() {
    yield '\ufeff' + csvLine(exportHeader);
    const values = filterValues(f);
    const where = conditions(values, bound(values));
    let cursor: { at: Date; id: number } | undefined;
    for (;;) {
      const rows = await db
        .select()
        .from(taskRuns)
        .where(and(...where, cursor ? after(sql`${cursor.at}`, sql`${cursor.id}`) : undefined))
        .orderBy(desc(taskRuns.startedAt), desc(taskRuns.id))
        .limit(1000);
      for (const r of rows) {
        yield csvLine([
          csvCell(r.id),
          csvCell(r.sn),
          csvCell(r.runId),
          csvCell(r.modelCode),
          csvCell(r.firmware),
          csvCell(r.owner, true),
          csvCell(r.trigger),
          csvCell(r.scheduleId),
          csvCell(r.scheduleName, true),
          csvCell(r.status),
          csvCell(r.result),
          csvCell(r.faultCode),
          csvCell(r.zones.join(' ')),
          csvCell(Math.round(r.areaM2 * 10) / 10),
          csvCell(r.durationS),
          csvCell(r.bladeOnS),
          csvCell(Math.round(r.distanceM)),
          csvCell(r.pauses),
          csvCell(r.resumesId),
          csvCell(r.startedAt.toISOString()),
          csvCell(r.endedAt?.toISOString() ?? ''),
        ]);
      }
      if (rows.length < 1000) return;
      const last = rows[rows.length - 1]!;
      cursor = { at: last.startedAt, id: last.id };
    }
  }
  return Readable.from(lines());
}

function toZone(z: typeof taskZones.$inferSelect): Zone {
  return {
    id: z.zoneId,
    name: z.name,
    polygon: z.polygon,
    areaM2: z.areaM2,
    lastMowedAt: z.lastMowedAt?.toISOString() ?? null,
    lastRunId: z.lastRunId,
    lastRunResult: z.lastRunResult,
    lastRunAt: z.lastRunAt?.toISOString() ?? null,
  };
}

export async function deviceZones(db: Db, sn: string, mustExist = true): Promise<DeviceZones> {
  if (mustExist) {
    const [device] = await db.select({ sn: devices.sn }).from(devices).where(eq(devices.sn, sn));
    if (!device) throw new AppError('SN_NOT_FOUND', { sn });
  }
  const rows = await db.select().from(taskZones).where(eq(taskZones.sn, sn)).orderBy(asc(taskZones.zoneId));
  const reportedAt = rows.reduce<Date | null>((latest, z) => (!latest || z.reportedAt > latest ? z.reportedAt : latest), null);
  return { sn, reportedAt: reportedAt?.toISOString() ?? null, zones: rows.map(toZone) };
}

export async function runDetail(db: Db, id: number): Promise<TaskRunDetail> {
  const [run] = await db.select().from(taskRuns).where(eq(taskRuns.id, id));
  if (!run) throw new AppError('TASK_RUN_NOT_FOUND');
  const events = await db.select().from(taskRunEvents).where(eq(taskRunEvents.runPk, id)).orderBy(asc(taskRunEvents.seq));
  const [resumes] = run.resumesId ? await db.select().from(taskRuns).where(eq(taskRuns.id, run.resumesId)) : [];
  const [resumedBy] = await db.select().from(taskRuns).where(eq(taskRuns.resumesId, id)).orderBy(asc(taskRuns.startedAt)).limit(1);
  const zones = await deviceZones(db, run.sn, false);
  return {
    ...toRun(run),
    path: run.path,
    events: events.map((e) => ({ seq: e.seq, type: e.type as TaskRunDetail['events'][number]['type'], at: e.at.toISOString(), detail: e.detail })),
    resumes: resumes ? toRun(resumes) : null,
    resumedBy: resumedBy ? toRun(resumedBy) : null,
    zonesDetail: zones.zones,
  };
}

const FAULT_DEFAULT_DAYS = 30;
const FAULT_MAX_DAYS = 400;

/** Runs ended by a fault, grouped by code; per model and firmware; a daily trend in the viewer's zone. */
export async function taskFaults(db: Db, q: TaskFaultQuery): Promise<TaskFaultReport> {
  const to = q.to ? new Date(q.to) : new Date();
  const from = q.from ? new Date(q.from) : localMidnight(new Date(to.getTime() - (FAULT_DEFAULT_DAYS - 1) * 86_400_000), q.tz);
  if (to < from || to.getTime() - from.getTime() > FAULT_MAX_DAYS * 86_400_000) throw new AppError('TASK_TIME_RANGE', { maxDays: FAULT_MAX_DAYS });
  const where = and(
    sql`${taskRuns.faultCode} is not null`,
    gte(taskRuns.startedAt, from),
    lte(taskRuns.startedAt, to),
    q.model ? eq(taskRuns.modelCode, q.model) : undefined,
    q.firmware ? eq(taskRuns.firmware, q.firmware) : undefined,
  );
  const groups = await db
    .select({ code: taskRuns.faultCode, model: taskRuns.modelCode, firmware: taskRuns.firmware, n: sql<number>`count(*)::int`, devices: sql<number>`count(distinct ${taskRuns.sn})::int` })
    .from(taskRuns)
    .where(where)
    .groupBy(taskRuns.faultCode, taskRuns.modelCode, taskRuns.firmware);
  const latest = await db
    .selectDistinctOn([taskRuns.faultCode], { code: taskRuns.faultCode, id: taskRuns.id, sn: taskRuns.sn, at: taskRuns.startedAt })
    .from(taskRuns)
    .where(where)
    .orderBy(taskRuns.faultCode, desc(taskRuns.startedAt), desc(taskRuns.id));
  const perCodeDevices = await db
    .select({ code: taskRuns.faultCode, n: sql<number>`count(distinct ${taskRuns.sn})::int` })
    .from(taskRuns)
    .where(where)
    .groupBy(taskRuns.faultCode);
  const byCode = new Map<string, { count: number; models: Map<string, number>; firmwares: Map<string, number> }>();
  for (const g of groups) {
    const code = g.code!;
    const entry = byCode.get(code) ?? { count: 0, models: new Map(), firmwares: new Map() };
    entry.count += g.n;
    entry.models.set(g.model, (entry.models.get(g.model) ?? 0) + g.n);
    entry.firmwares.set(g.firmware, (entry.firmwares.get(g.firmware) ?? 0) + g.n);
    byCode.set(code, entry);
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const list = [...byCode].map(([code, e]) => {
    const last = latest.find((l) => l.code === code)!;
    const text = taskFaultText(code, 'en-US');
    return {
      code,
      known: text.known,
      severity: text.severity,
      count: e.count,
      devices: perCodeDevices.find((d) => d.code === code)?.n ?? 0,
      byModel: sorted(e.models).map(([model, count]) => ({ model, count })),
      byFirmware: sorted(e.firmwares).map(([firmware, count]) => ({ firmware, count })),
      lastAt: last.at.toISOString(),
      lastRunId: last.id,
      lastSn: last.sn,
    };
  });
  list.sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));

  // Trend: per local day of the viewer.
  const daily = await db
    .select({ day: sql<string>`to_char(${taskRuns.startedAt} at time zone ${q.tz}, 'YYYY-MM-DD')`, code: taskRuns.faultCode, n: sql<number>`count(*)::int` })
    .from(taskRuns)
    .where(where)
    .groupBy(sql`1`, taskRuns.faultCode);
  const trend: TaskFaultReport['trend'] = [];
  for (let day = localDate(from, q.tz), end = localDate(to, q.tz), guard = 0; day <= end && guard < FAULT_MAX_DAYS + 2; day = nextDate(day), guard++) {
    const rows = daily.filter((d) => d.day === day);
    trend.push({ date: day, total: rows.reduce((n, r) => n + r.n, 0), byCode: Object.fromEntries(rows.map((r) => [r.code!, r.n])) });
  }
  return { from: from.toISOString(), to: to.toISOString(), total: list.reduce((n, g) => n + g.count, 0), list, trend };
}

export function nextDate(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
