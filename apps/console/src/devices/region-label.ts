import type { Translate } from '../locale/i18n.ts';

/**
 * A region's name in the reader's language. Regions are slugs staff choose when registering SNs;
 * the usual ones (`europe`, `asia`, …) have names in the locale files, any other is the operator's
 * own word and is shown as written.
 */
export function regionLabel(t: Translate, region: string): string {
  if (!region) return '-';
  const key = `devices.region.${region}`;
  const text = t(key);
  return text === key ? region : text;
}

/** Slugs with a name in both locale files (checked by the locale test). */
export const namedRegions = ['europe', 'asia', 'africa', 'north-america', 'south-america', 'oceania', 'middle-east'] as const;
