import { clockMinutes, TASK_REPORT_DAYS, taskFaultText, type Locale, type RunEvent, type RunResult, type RunStatus, type SyncState } from '@mowerline/contract';
import type { Translate } from '../locale/i18n.ts';

/** The viewer's IANA zone: the daily report's days are the viewer's days. */
export function viewerTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/**
 * The daily report's window (spec): Unix seconds from the start of the local day `days` days ago
 * to 23:59:59 of today. Calendar arithmetic, so a DST change inside the window moves no boundary.
 */
export function reportWindow(now: Date, days: number = TASK_REPORT_DAYS): { start_time: number; end_time: number } {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate() - days, 0, 0, 0, 0);
  const end = new Date(now.getFullYear(), now.getMonth(), now.getDate(), 23, 59, 59, 0);
  return { start_time: Math.floor(start.getTime() / 1000), end_time: Math.floor(end.getTime() / 1000) };
}

export function fileStamp(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}${p(date.getMonth() + 1)}${p(date.getDate())}-${p(date.getHours())}${p(date.getMinutes())}${p(date.getSeconds())}`;
}

export const resultColor: Record<RunResult, string> = { completed: 'green', user_ended: 'arcoblue', interrupted: 'orange', failed: 'red' };
export const statusColor: Record<RunStatus, string> = { running: 'cyan', paused: 'gold', ended: 'gray' };
export const syncColor: Record<SyncState, string> = { pending: 'orange', applied: 'green', failed: 'red' };
export const severityColor: Record<string, string> = { critical: 'red', major: 'orangered', minor: 'orange', warning: 'gold', unknown: 'gray' };

/** A share (0..1) as a percentage with one decimal. */
export const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
/** A number with at most `digits` decimals in the reader's language. */
export const num = (value: number, locale: Locale, digits = 1) => value.toLocaleString(locale, { maximumFractionDigits: digits });

/** Seconds as `1 h 05 min` / `12 min` / `40 s`. */
export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** A fault code with its localized title; an unknown code reads "unknown code X" (never hidden). */
export function faultLabel(code: string, locale: Locale) {
  return { code, ...taskFaultText(code, locale) };
}

/** A value the contract may grow (a newer pause reason): its label, else the value itself. */
export function label(t: Translate, prefix: string, value: string): string {
  const key = `${prefix}.${value}`;
  const text = t(key);
  return text === key ? value : text;
}

/** One line of a run's timeline. Progress reports are folded into a count by the caller. */
export function eventText(event: RunEvent, t: Translate, locale: Locale): string {
  const d = event.detail as Record<string, unknown>;
  switch (event.type) {
    case 'started':
      return t('taskRun.event.started', { trigger: label(t, 'task.trigger', String(d.trigger ?? '-')) });
    case 'progress':
      return t('taskRun.event.progress', { percent: num(Number(d.percent ?? 0), locale, 0), area: num(Number(d.areaM2 ?? 0), locale) });
    case 'paused': {
      const reason = label(t, 'task.pause', String(d.reason ?? 'other'));
      return typeof d.battery === 'number' ? t('taskRun.event.pausedBattery', { reason, battery: d.battery }) : t('taskRun.event.paused', { reason });
    }
    case 'resumed':
      return t('taskRun.event.resumed');
    case 'ended':
      return t('taskRun.event.ended', { result: label(t, 'task.result', String(d.result ?? '-')) });
  }
}

// ---------------------------------------------------------------- schedule slots

export interface SlotInput {
  weekday?: number;
  start?: string;
  end?: string;
}

const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;
export const validTime = (value: string | undefined) => !!value && TIME.test(value);

/** Why a slot is refused, as a message key (with params): format, order, or overlap with an earlier slot of the same weekday. */
export function slotProblem(slots: SlotInput[], index: number): { key: string; params?: Record<string, string | number> } | undefined {
  const slot = slots[index];
  if (!slot) return undefined;
  if (!validTime(slot.start) || !validTime(slot.end)) return { key: 'taskSchedule.validate.time' };
  if (slot.start === '24:00' || clockMinutes(slot.start!) >= clockMinutes(slot.end!)) return { key: 'taskSchedule.validate.order' };
  const from = clockMinutes(slot.start!);
  const to = clockMinutes(slot.end!);
  for (let other = 0; other < slots.length; other++) {
    const o = slots[other]!;
    if (other === index || o.weekday !== slot.weekday || !validTime(o.start) || !validTime(o.end)) continue;
    const oFrom = clockMinutes(o.start!);
    const oTo = clockMinutes(o.end!);
    if (oFrom < oTo && from < oTo && oFrom < to) return { key: 'taskSchedule.validate.overlap', params: { weekday: slot.weekday ?? 0 } };
  }
  return undefined;
}
