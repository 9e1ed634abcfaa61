import { and, gte, lt, sql } from 'drizzle-orm';
import { MAX_TASK_REPORT_DAYS, type TaskDailyReport, type TaskDailyReportQuery, type TaskOverview, type TaskStats } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { AppError } from '../http/envelope.ts';
import { taskRollups, taskRuns } from './tasks.sql.ts';

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

const sums = {
  runs: sql<number>`coalesce(sum(${taskRollups.runs}), 0)::int`,
  ended: sql<number>`coalesce(sum(${taskRollups.ended}), 0)::int`,
  completed: sql<number>`coalesce(sum(${taskRollups.completed}), 0)::int`,
  interrupted: sql<number>`coalesce(sum(${taskRollups.interrupted}), 0)::int`,
  userEnded: sql<number>`coalesce(sum(${taskRollups.userEnded}), 0)::int`,
  faults: sql<number>`coalesce(sum(${taskRollups.faults}), 0)::int`,
  area: sql<number>`coalesce(sum(${taskRollups.areaM2}), 0)::float8`,
  durationS: sql<number>`coalesce(sum(${taskRollups.durationS}), 0)::float8`,
};
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
  const from = dayStart(first, q.tz);
  const to = dayStart(addDays(last, 1), q.tz);
  const rows = await db
    .select({ bucket: taskRollups.bucket, ...sums })
    .from(taskRollups)
    .where(and(gte(taskRollups.bucket, from), lt(taskRollups.bucket, to)))
    .groupBy(taskRollups.bucket);
  const byDay = new Map(days.map((date) => [date, { date, runs: 0, completed: 0, interrupted: 0, faults: 0, area: 0, hours: 0 }]));
  // Day boundaries as instants: each bucket belongs to the day whose start it is at or after.
  const starts = days.map((d) => dayStart(d, q.tz).getTime());
  for (const r of rows) {
    const t = new Date(r.bucket).getTime();
    let i = starts.length - 1;
    while (i > 0 && starts[i]! > t) i--;
    const day = byDay.get(days[i]!)!;
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
  const inWindow = and(gte(taskRollups.bucket, windowStart));
  const [[todayRow], [windowRow], byModel, byFirmware, open] = await Promise.all([
    db.select(sums).from(taskRollups).where(gte(taskRollups.bucket, todayStart)),
    db.select(sums).from(taskRollups).where(inWindow),
    db.select({ model: taskRollups.modelCode, ...sums }).from(taskRollups).where(inWindow).groupBy(taskRollups.modelCode),
    db.select({ firmware: taskRollups.firmware, ...sums }).from(taskRollups).where(inWindow).groupBy(taskRollups.firmware),
    db
      .select({ status: taskRuns.status, n: sql<number>`count(*)::int` })
      .from(taskRuns)
      .where(and(sql`${taskRuns.status} <> 'ended'`, gte(taskRuns.lastReportAt, new Date(now.getTime() - OPEN_RUN_MS))))
      .groupBy(taskRuns.status),
  ]);
  return {
    tz: q.tz,
    days: q.days,
    runningNow: Number(open.find((o) => o.status === 'running')?.n ?? 0),
    pausedNow: Number(open.find((o) => o.status === 'paused')?.n ?? 0),
    today: stats(todayRow!),
    window: stats(windowRow!),
    byModel: byModel.map((m) => ({ model: m.model, ...stats(m) })).sort((a, b) => b.runs - a.runs),
    byFirmware: byFirmware.map((f) => ({ firmware: f.firmware, ...stats(f) })).sort((a, b) => b.runs - a.runs),
  };
}
