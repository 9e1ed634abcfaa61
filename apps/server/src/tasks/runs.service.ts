import { Readable } from 'node:stream';
import { and, asc, desc, eq, gte, like, lte, or, sql, type SQL } from 'drizzle-orm';
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

function conditions(f: RunFilter): SQL[] {
  const where: SQL[] = [];
  if (f.sn) where.push(f.sn.length >= 4 ? eq(taskRuns.sn, f.sn) : like(taskRuns.sn, prefixPattern(f.sn)));
  if (f.owner) where.push(f.owner.includes('@') ? eq(taskRuns.owner, f.owner.toLowerCase()) : like(taskRuns.owner, prefixPattern(f.owner.toLowerCase())));
  if (f.model) where.push(eq(taskRuns.modelCode, f.model));
  if (f.trigger) where.push(eq(taskRuns.trigger, f.trigger));
  if (f.result) where.push(eq(taskRuns.result, f.result));
  if (f.status) where.push(eq(taskRuns.status, f.status));
  if (f.faultCode) where.push(eq(taskRuns.faultCode, f.faultCode));
  if (f.scheduleId) where.push(eq(taskRuns.scheduleId, f.scheduleId));
  if (f.from) where.push(gte(taskRuns.startedAt, new Date(f.from)));
  if (f.to) where.push(lte(taskRuns.startedAt, new Date(f.to)));
  return where;
}

/** `<started ms>_<id>`: keyset on (started_at, id), newest first. */
function parseCursor(cursor: string | undefined): { at: Date; id: number } | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  const m = /^(\d{1,15})_(\d{1,10})$/.exec(cursor);
  if (!m) throw new AppError('INVALID_CURSOR');
  return { at: new Date(Number(m[1])), id: Number(m[2]) };
}
const after = (c: { at: Date; id: number }) => or(sql`${taskRuns.startedAt} < ${c.at}`, and(eq(taskRuns.startedAt, c.at), sql`${taskRuns.id} < ${c.id}`))!;

export async function listRuns(db: Db, q: RunListQuery) {
  const where = conditions(q);
  const cursor = parseCursor(q.cursor);
  const [rows, { total, exact }] = await Promise.all([
    db
      .select()
      .from(taskRuns)
      .where(and(...where, cursor ? after(cursor) : undefined))
      .orderBy(desc(taskRuns.startedAt), desc(taskRuns.id))
      .limit(q.pageSize + 1)
      .offset(cursor ? 0 : (q.page - 1) * q.pageSize),
    countMatches(db, () => db.select({ id: taskRuns.id }).from(taskRuns).where(and(...where)).$dynamic()),
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
    const where = conditions(f);
    let cursor: { at: Date; id: number } | undefined;
    for (;;) {
      const rows = await db
        .select()
        .from(taskRuns)
        .where(and(...where, cursor ? after(cursor) : undefined))
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
