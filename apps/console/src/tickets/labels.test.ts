import { describe, expect, it } from 'vitest';
import { countdown, slaDue } from './labels.ts';

const t = (key: string, params?: Record<string, string | number>) => `${params?.n}${key.slice(-1)}`;

describe('ticket labels', () => {
  it('runs the SLA clock against the earlier due time', () => {
    expect(slaDue({ slaFirstResponseDue: '2026-01-01T10:00:00Z', slaResolutionDue: '2026-01-03T10:00:00Z' })).toEqual({ at: '2026-01-01T10:00:00Z', kind: 'firstResponse' });
    expect(slaDue({ slaFirstResponseDue: null, slaResolutionDue: '2026-01-03T10:00:00Z' })).toEqual({ at: '2026-01-03T10:00:00Z', kind: 'resolution' });
    expect(slaDue({ slaFirstResponseDue: null, slaResolutionDue: null })).toBeNull();
  });

  it('shows a countdown in its two largest units, the same either side of zero', () => {
    expect(countdown(t, (2 * 86_400 + 4 * 3600 + 59) * 1000)).toBe('2d 4h');
    expect(countdown(t, -(3 * 3600 + 5 * 60) * 1000)).toBe('3h 05m');
    expect(countdown(t, 12 * 60_000 + 10)).toBe('12m');
    expect(countdown(t, 40_500)).toBe('40s');
  });
});
