import { describe, expect, it } from 'vitest';
import zh from './locale/zh-CN.ts';
import en from './locale/en-US.ts';
import { namedRegions, regionLabel } from './region-label.ts';

const dictionaries = { 'zh-CN': zh, 'en-US': en } as Record<string, Record<string, string>>;

describe('region names', () => {
  it.each(Object.keys(dictionaries))('names every usual region in %s', (locale) => {
    for (const region of namedRegions) expect(dictionaries[locale]![`devices.region.${region}`], region).toBeTruthy();
  });

  it('names a known region and shows an operator-made one as written', () => {
    const t = (key: string) => dictionaries['zh-CN']![key] ?? key;
    expect(regionLabel(t, 'europe')).toBe('欧洲');
    expect(regionLabel(t, 'eu-north')).toBe('eu-north');
    expect(regionLabel(t, '')).toBe('-');
  });
});
