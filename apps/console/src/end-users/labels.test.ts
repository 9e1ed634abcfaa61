import { describe, expect, it } from 'vitest';
import { appUserStatuses, deviceRoles, distributionBases, userLogActions, userLogResults } from '@mowerline/contract';
import zh from './locale/zh-CN.ts';
import en from './locale/en-US.ts';
import { countryName, logActionLabel, percent } from './labels.ts';

const dictionaries = { 'zh-CN': zh, 'en-US': en } as Record<string, Record<string, string>>;

describe('app-user labels', () => {
  it.each(Object.keys(dictionaries))('names every contract status, role, log action, result and basis in %s', (locale) => {
    const strings = dictionaries[locale]!;
    for (const status of appUserStatuses) expect(strings[`endUser.status.${status}`], status).toBeTruthy();
    for (const role of deviceRoles) expect(strings[`endUser.role.${role}`], role).toBeTruthy();
    for (const action of userLogActions) expect(strings[`endUser.action.${action}`], action).toBeTruthy();
    for (const result of userLogResults) expect(strings[`userLog.result.${result}`], result).toBeTruthy();
    for (const basis of distributionBases) {
      expect(strings[`userDist.basis.${basis}`], basis).toBeTruthy();
      expect(strings[`userDist.total.${basis}`], basis).toBeTruthy();
      expect(strings[`userDist.hint.${basis}`], basis).toBeTruthy();
    }
  });

  it('shows an action newer than this console as recorded, countries by name, shares as percentages', () => {
    const t = (key: string) => en[key as keyof typeof en] ?? key;
    expect(logActionLabel(t, 'bind')).toBe('Bind mower');
    expect(logActionLabel(t, 'lawn.mow')).toBe('lawn.mow');
    expect(countryName('DE', 'en-US')).toBe('Germany');
    expect(countryName('DE', 'zh-CN')).toBe('德国');
    expect(countryName('', 'en-US')).toBe('');
    expect(percent(0.1234)).toBe('12.3%');
  });
});
