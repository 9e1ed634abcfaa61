import { describe, expect, it } from 'vitest';
import { auditActions, auditTargetTypes, emailStatuses, emailTemplates } from '@mowerline/contract';
import zhLog from './locale/zh-CN.ts';
import enLog from './locale/en-US.ts';
import zhMail from '../email-log/locale/zh-CN.ts';
import enMail from '../email-log/locale/en-US.ts';
import { actionFamily, actionGroups, actionLabel, actorLabel, familyLabel } from './audit-action.ts';

const dictionaries = { 'zh-CN': zhLog, 'en-US': enLog } as Record<string, Record<string, string>>;

describe('audit action labels', () => {
  it.each(Object.keys(dictionaries))('every contract audit action and family has a %s label', (locale) => {
    const strings = dictionaries[locale]!;
    for (const action of auditActions) expect(strings[`audit.action.${action}`], action).toBeTruthy();
    for (const family of new Set(auditActions.map(actionFamily))) expect(strings[`audit.family.${family}`], family).toBeTruthy();
    // A target type without a label would show raw (`productModel`, `sn`) in the system log.
    for (const target of auditTargetTypes) expect(strings[`audit.target.${target}`], target).toBeTruthy();
  });

  it('names voice pack uploads apart from firmware uploads', () => {
    const t = (key: string) => enLog[key as keyof typeof enLog] ?? key;
    expect(auditActions).toContain('ota.voice.upload');
    expect(actionLabel(t, 'ota.voice.upload')).toBe('Upload voice pack');
    expect(actionLabel(t, 'ota.firmware.upload')).toBe('Upload firmware');
  });

  it('translates known actions and shows unknown ones as recorded', () => {
    const t = (key: string) => enLog[key as keyof typeof enLog] ?? key;
    expect(actionLabel(t, 'auth.login')).toBe('Sign in');
    expect(actionLabel(t, 'lawn.mow')).toBe('lawn.mow');
    expect(familyLabel(t, 'lawn')).toBe('lawn.*');
  });

  it('groups the action filter by family, every action exactly once', () => {
    const groups = actionGroups();
    expect(groups.map((g) => g.family)).toEqual([...new Set(auditActions.map(actionFamily))]);
    expect(groups.flatMap((g) => g.actions).sort()).toEqual([...auditActions].sort());
  });
});

describe('e-mail log labels', () => {
  it('names every template and status in both languages', () => {
    for (const strings of [zhMail, enMail] as Array<Record<string, string>>) {
      for (const template of emailTemplates) expect(strings[`emailLog.template.${template}`], template).toBeTruthy();
      for (const status of emailStatuses) expect(strings[`emailLog.status.${status}`], status).toBeTruthy();
    }
  });
});

describe('actor labels', () => {
  it('shows the system actor as System / 系统, and people by their username', () => {
    const en = (key: string) => enLog[key as keyof typeof enLog] ?? key;
    const zh = (key: string) => zhLog[key as keyof typeof zhLog] ?? key;
    expect(actorLabel(en, { actorId: null, actorName: 'system' })).toBe('System');
    expect(actorLabel(zh, { actorId: null, actorName: 'system' })).toBe('系统');
    expect(actorLabel(en, { actorId: 1, actorName: 'admin' })).toBe('admin');
    // A person who happens to be called "system" is still a person.
    expect(actorLabel(en, { actorId: 7, actorName: 'system' })).toBe('system');
    expect(actorLabel(en, { actorId: null, actorName: '' })).toBe('-');
  });
});
