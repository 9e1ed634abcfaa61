import { describe, expect, it } from 'vitest';
import { compareVersion } from './version-check.ts';

describe('version check', () => {
  it('stores on the first visit, asks on a different version, stays quiet on the same one', () => {
    expect(compareVersion(null, '2026-05-01')).toBe('first-visit');
    expect(compareVersion('2026-05-01', '2026-05-01')).toBe('same');
    expect(compareVersion('2026-05-01', '2026-05-02')).toBe('changed');
  });
});
