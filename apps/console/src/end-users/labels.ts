import type { AppUserStatus, Locale, UserLogAction } from '@mowerline/contract';
import type { Translate } from '../locale/i18n.ts';

export const statusColor: Record<AppUserStatus, string> = {
  active: 'green',
  unverified: 'orange',
  disabled: 'red',
  deletion_pending: 'gray',
};

export const resultColor = { success: 'green', failure: 'red' } as const;

const regionNames = new Map<Locale, Intl.DisplayNames>();

/** `DE` → "Germany" / "德国" from the browser's own data; the code itself when it knows none. */
export function countryName(code: string, locale: Locale): string {
  if (!code) return '';
  let names = regionNames.get(locale);
  if (!names) {
    names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' });
    regionNames.set(locale, names);
  }
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

/** A user-log action as words; one newer than this console shows as recorded. */
export function logActionLabel(t: Translate, action: UserLogAction | string): string {
  const key = `endUser.action.${action}`;
  const text = t(key);
  return text === key ? action : text;
}

/** A share (0..1) as a percentage with one decimal. */
export const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
