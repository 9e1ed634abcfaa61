import type { Locale } from '@mowerline/contract';

const steps: Array<[unit: 'day' | 'hour' | 'minute' | 'second', seconds: number]> = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
];

/**
 * How far a subscriber is behind, in its two largest units, in the reader's language:
 * "3 min 20 sec" / "3分钟20秒", "2 hr 5 min", "45 sec". Zero reads as null (nothing is waiting).
 */
export function formatLag(seconds: number, locale: Locale): string | null {
  let left = Math.max(0, Math.round(seconds));
  if (left === 0) return null;
  const parts: string[] = [];
  for (const [unit, size] of steps) {
    if (parts.length === 2) break;
    const amount = Math.floor(left / size);
    if (amount === 0 && parts.length === 0) continue;
    left -= amount * size;
    if (amount > 0) parts.push(new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short' }).format(amount));
    else break;
  }
  return parts.join(locale === 'zh-CN' ? '' : ' ');
}
