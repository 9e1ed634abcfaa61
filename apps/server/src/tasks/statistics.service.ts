import { and, gte, sql, type SQL } from 'drizzle-orm';
import { MAX_TASK_REPORT_DAYS, type TaskDailyReport, type TaskDailyReportQuery, type TaskOverview, type TaskStats } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { AppError } from '../http/envelope.ts';
import { taskRuns } from './tasks.sql.ts';

/** A run counts as "running now" while it reported within this long. */
const OPEN_RUN_MS = 6 * 3600_000;

const dateFormats = new Map<string, Intl.DateTimeFormat>();
function partsFormat(tz: string): Intl.DateTimeFormat {
  let f = dateFormats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    dateFormats.set(tz, f);
  }
  return f;
}
function localParts(at: Date, tz: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of partsFormat(tz).formatToParts(at)) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return out;
}
/** `YYYY-MM-DD` of an instant in a time zone. */
export function localDate(at: Date, tz: string): string {
  const p = localParts(at, tz);
  return `${String(p.year).padStart(4, '0')}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}
/** Offset of a zone at an instant, ms (local − UTC). */
function offsetMs(at: Date, tz: string): number {
  const p = localParts(at, tz);
  const local = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return local - Math.floor(at.getTime() / 1000) * 1000;
}
/** The instant a local day starts (`YYYY-MM-DD` in `tz`); where midnight is skipped, the first instant of that day. */
export function dayStart(date: string, tz: string): Date {
  const guess = Date.parse(`${date}T00:00:00Z`);
  let t = guess - offsetMs(new Date(guess), tz);
  t = guess - offsetMs(new Date(t), tz);
  // A DST gap at midnight: step forward to the first instant of the day.
  while (localDate(new Date(t), tz) < date) t += 15 * 60_000;
  while (localDate(new Date(t - 15 * 60_000), tz) === date) t -= 15 * 60_000;
  return new Date(t);
}
/** The start of the local day containing `at`. */
export function localMidnight(at: Date, tz: string): Date {
  return dayStart(localDate(at, tz), tz);
}
function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}


const HOUR_MS = 3600_000;
const DAY_MS = 86_400_000;
type Level = 'task_rollups' | 'task_rollups_hourly' | 'task_rollups_daily';
const levels: Array<{ table: Level; column: string }> = [
  { table: 'task_rollups', column: 'bucket' },
  { table: 'task_rollups_hourly', column: 'hour' },
  { table: 'task_rollups_daily', column: 'day' },
];

/**
 * The roll-up rows covering [from, to) (instants on 15-minute boundaries; `splits` are instants a
 * row must not straddle, such as the viewer's midnights): whole UTC days from task_rollups_daily,
 * whole hours from task_rollups_hourly, the quarters left at the ends from task_rollups. Each row
 * as (at, model_code, firmware, sums…), `at` the start of its bucket.
 */
function rollupRows(from: Date, to: Date, splits: Date[] = []): SQL {
  const ranges: Array<Array<[number, number]>> = [[], [], []];
  const push = (level: number, a: number, b: number) => {
    if (a >= b) return;
    const list = ranges[level]!;
    const last = list[list.length - 1];
    if (last && last[1] === a) last[1] = b;
    else list.push([a, b]);
  };
  const cuts = [from.getTime(), ...splits.map((d) => d.getTime()).filter((t) => t > from.getTime() && t < to.getTime()), to.getTime()];
  for (let k = 0; k + 1 < cuts.length; k++) {
    const a = cuts[k]!;
    const b = cuts[k + 1]!;
    const ha = Math.ceil(a / HOUR_MS) * HOUR_MS;
    const hb = Math.floor(b / HOUR_MS) * HOUR_MS;
    const da = Math.ceil(a / DAY_MS) * DAY_MS;
    const db = Math.floor(b / DAY_MS) * DAY_MS;
    if (da < db) {
      push(0, a, ha);
      push(1, ha, da);
      push(2, da, db);
      push(1, db, hb);
      push(0, hb, b);
    } else if (ha < hb) {
      push(0, a, ha);
      push(1, ha, hb);
      push(0, hb, b);
    } else push(0, a, b);
  }
  const parts = levels.flatMap(({ table, column }, level) => {
    const list = ranges[level]!;
    if (list.length === 0) return [];
    const col = sql.identifier(column);
    const where = sql.join(
      list.map(([a, b]) => sql`(${col} >= ${new Date(a).toISOString()}::timestamptz and ${col} < ${new Date(b).toISOString()}::timestamptz)`),
      sql` or `,
    );
    return [sql`select ${col} as at, model_code, firmware, runs, ended, completed, interrupted, user_ended, faults, area_m2, duration_s from ${sql.identifier(table)} where ${where}`];
  });
  return parts.length > 0 ? sql.join(parts, sql` union all `) : sql`select null::timestamptz as at, ''::text as model_code, ''::text as firmware, 0 as runs, 0 as ended, 0 as completed, 0 as interrupted, 0 as user_ended, 0 as faults, 0::float8 as area_m2, 0::bigint as duration_s where false`;
}

const rowSums = sql.raw(
  `coalesce(sum(runs), 0)::int as runs, coalesce(sum(ended), 0)::int as ended, coalesce(sum(completed), 0)::int as completed, coalesce(sum(interrupted), 0)::int as interrupted, ` +
    `coalesce(sum(user_ended), 0)::int as "userEnded", coalesce(sum(faults), 0)::int as faults, coalesce(sum(area_m2), 0)::float8 as area, coalesce(sum(duration_s), 0)::float8 as "durationS"`,
);
async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

type Sums = { runs: number; ended: number; completed: number; interrupted: number; userEnded: number; faults: number; area: number; durationS: number };

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

function stats(s: Sums): TaskStats {
  const ended = Number(s.ended);
  return {
    runs: Number(s.runs),
    ended,
    completed: Number(s.completed),
    interrupted: Number(s.interrupted),
    userEnded: Number(s.userEnded),
    faults: Number(s.faults),
    area: round(Number(s.area), 1),
    hours: round(Number(s.durationS) / 3600, 2),
    completionRate: ended > 0 ? round(Number(s.completed) / ended, 4) : 0,
    interruptionRate: ended > 0 ? round(Number(s.interrupted) / ended, 4) : 0,
    faultsPer100Runs: ended > 0 ? round((Number(s.faults) * 100) / ended, 2) : 0,
  };
}

/**
 * The spec's daily report: one entry per local day of `tz` from start_time's day to end_time's day,
 * read from the 15-minute roll-ups (a viewer's day is always a whole range of them).
 */
export async function taskDailyReport(db: Db, q: TaskDailyReportQuery): Promise<TaskDailyReport> {
  if (q.end_time < q.start_time) throw new AppError('TASK_TIME_RANGE', { maxDays: MAX_TASK_REPORT_DAYS });
  const first = localDate(new Date(q.start_time * 1000), q.tz);
  const last = localDate(new Date(q.end_time * 1000), q.tz);
  const days: string[] = [];
  for (let d = first; d <= last; d = addDays(d, 1)) {
    days.push(d);
    if (days.length > MAX_TASK_REPORT_DAYS) throw new AppError('TASK_TIME_RANGE', { maxDays: MAX_TASK_REPORT_DAYS });
  }
  // Day boundaries as instants; PostgreSQL sums each day (width_bucket: the day whose start a
  // bucket is at or after), so 30 rows come back instead of one per 15 minutes × model × firmware.
  const starts = days.map((d) => dayStart(d, q.tz));
  const from = starts[0]!;
  const to = dayStart(addDays(last, 1), q.tz);
  const reportRows = await rows<Sums & { day: number }>(
    db,
    sql`select width_bucket(at, ${`{${starts.map((s) => s.toISOString()).join(',')}}`}::timestamptz[]) as day, ${rowSums} from (${rollupRows(from, to, starts)}) r group by 1`,
  );
  const byDay = new Map(days.map((date) => [date, { date, runs: 0, completed: 0, interrupted: 0, faults: 0, area: 0, hours: 0 }]));
  for (const r of reportRows) {
    const day = byDay.get(days[Math.max(1, Number(r.day)) - 1]!)!;
    day.runs += Number(r.runs);
    day.completed += Number(r.completed);
    day.interrupted += Number(r.interrupted);
    day.faults += Number(r.faults);
    day.area += Number(r.area);
    day.hours += Number(r.durationS) / 3600;
  }
  return { list: [...byDay.values()].map((d) => ({ ...d, area: round(d.area, 1), hours: round(d.hours, 2) })) };
}

export async function taskOverview(db: Db, q: { tz: string; days: number }): Promise<TaskOverview> {
  const now = new Date();
  const today = localDate(now, q.tz);
  const todayStart = dayStart(today, q.tz);
  const windowStart = dayStart(addDays(today, -(q.days - 1)), q.tz);
  // The window's roll-ups summed once per (model, firmware) — a handful of rows, from which the
  // totals, per model and per firmware are added up here — and today's few buckets on their own.
  // (Grouping sets or one query per breakdown aggregate the window's rows three or four times.)
  // Open-ended: up to the end of tomorrow (UTC), beyond any bucket a device clock may claim.
  const end = new Date((Math.floor(now.getTime() / DAY_MS) + 2) * DAY_MS);
  const [pairs, [todayRow], open] = await Promise.all([
    rows<Sums & { model: string; firmware: string }>(db, sql`select model_code as model, firmware, ${rowSums} from (${rollupRows(windowStart, end)}) r group by 1, 2`),
    rows<Sums>(db, sql`select ${rowSums} from (${rollupRows(todayStart, end)}) r`),
    db
      .select({ status: taskRuns.status, n: sql<number>`count(*)::int` })
      .from(taskRuns)
      .where(and(sql`${taskRuns.status} <> 'ended'`, gte(taskRuns.lastReportAt, new Date(now.getTime() - OPEN_RUN_MS))))
      .groupBy(taskRuns.status),
  ]);
  const zero = (): Sums => ({ runs: 0, ended: 0, completed: 0, interrupted: 0, userEnded: 0, faults: 0, area: 0, durationS: 0 });
  const add = (to: Sums, from: Sums) => {
    for (const k of Object.keys(to) as Array<keyof Sums>) to[k] += Number(from[k]);
  };
  const windowRow = zero();
  const models = new Map<string, Sums>();
  const firmwares = new Map<string, Sums>();
  for (const p of pairs) {
    add(windowRow, p);
    add(models.get(p.model) ?? models.set(p.model, zero()).get(p.model)!, p);
    add(firmwares.get(p.firmware) ?? firmwares.set(p.firmware, zero()).get(p.firmware)!, p);
  }
  const byModel = [...models].map(([model, m]) => ({ model, ...m }));
  const byFirmware = [...firmwares].map(([firmware, f]) => ({ firmware, ...f }));
  return {
    tz: q.tz,
    days: q.days,
    runningNow: Number(open.find((o) => o.status === 'running')?.n ?? 0),
    pausedNow: Number(open.find((o) => o.status === 'paused')?.n ?? 0),
    today: stats(todayRow!),
    window: stats(windowRow),
    byModel: byModel.map((m) => ({ model: m.model, ...stats(m) })).sort((a, b) => b.runs - a.runs),
    byFirmware: byFirmware.map((f) => ({ firmware: f.firmware, ...stats(f) })).sort((a, b) => b.runs - a.runs),
  };
}
