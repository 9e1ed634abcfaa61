import { beforeAll, describe, expect, it, vi } from 'vitest';

// The locale store reads the stored language when it loads: give it web storage first.
vi.hoisted(() => {
  const items = new Map<string, string>();
  const localStorage = { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v) };
  Object.assign(globalThis, { localStorage, document: { documentElement: {} } });
});

const { loadAllStrings, translate } = await import('./i18n.ts');

describe('counts in both languages', () => {
  beforeAll(() => loadAllStrings());

  it('says "1 ticket" and "2 tickets", also for counts formatted for display', () => {
    expect(translate('en-US', 'ticket.total', { total: '1' })).toBe('1 ticket');
    expect(translate('en-US', 'ticket.total', { total: 2 })).toBe('2 tickets');
    expect(translate('en-US', 'ticket.total', { total: (1000).toLocaleString('en-US') })).toBe('1,000 tickets');
    expect(translate('en-US', 'devices.total', { total: 1 })).toBe('1 device');
  });

  it('keeps the one form of a language without plurals', () => {
    expect(translate('zh-CN', 'ticket.total', { total: 1 })).toBe(translate('zh-CN', 'ticket.total', { total: 5 }).replace('5', '1'));
  });

  it('leaves keys without a count or without a plural variant alone', () => {
    expect(translate('en-US', 'ticket.total')).toBe('{total} tickets');
    expect(translate('en-US', 'ticket.bulk.selected', { count: 1 })).toBe('1 selected');
  });
});
