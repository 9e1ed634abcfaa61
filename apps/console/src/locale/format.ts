import type { Locale } from '@mowerline/contract';
import { useLocaleStore } from './i18n.ts';

const dateTimeFormats = new Map<Locale, Intl.DateTimeFormat>();

/** An API time (ISO) as the reader's local date and time, e.g. 2026/05/04 13:22:10; '-' when absent. */
export function formatDateTime(iso: string | null | undefined, locale: Locale): string {
  if (!iso) return '-';
  let format = dateTimeFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    dateTimeFormats.set(locale, format);
  }
  return format.format(new Date(iso));
}

const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "3 minutes ago" / "3 分钟前"; under a minute reads "now". */
export function formatRelative(iso: string, locale: Locale, now: number = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(0, 'second');
}

/** The formatters bound to the console language (re-render on a language switch). */
export function useFormatTime() {
  const locale = useLocaleStore((s) => s.locale);
  return {
    dateTime: (iso: string | null | undefined) => formatDateTime(iso, locale),
    relative: (iso: string) => formatRelative(iso, locale),
  };
}
