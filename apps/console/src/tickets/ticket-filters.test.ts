import { describe, expect, it } from 'vitest';
import { filtersFromUrl, filtersToUrl } from './ticket-filters.ts';

describe('ticket list filters in the URL', () => {
  it('round-trips every kind of filter', () => {
    const filters = { status: 'pending_customer', assigneeId: 3, slaBreached: true, sn: 'E2E-0001', createdFrom: '2026-01-01T00:00:00.000Z', view: 'mine' } as const;
    expect(filtersFromUrl(filtersToUrl(filters))).toEqual(filters);
  });

  it('drops only the parameter that is bad', () => {
    expect(filtersFromUrl(new URLSearchParams('status=nope&priority=high&assigneeId=-4&slaBreached=maybe'))).toEqual({ priority: 'high' });
  });
});
