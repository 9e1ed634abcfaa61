import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DeviceEvent, EventCount, EventListQuery, EventSeverity } from '@mowerline/contract';
import { get, post } from '../api/request.ts';
import { useLocaleStore } from '../locale/i18n.ts';

/** New faults arrive all the time: the page refreshes on this beat while visible. */
export const EVENTS_REFRESH_MS = 10_000;

const keys = {
  all: ['device-events'] as const,
  list: (query: Partial<EventListQuery>, locale: string) => ['device-events', 'list', query, locale] as const,
  counts: (query: object, locale: string) => ['device-events', 'counts', query, locale] as const,
};

interface EventPage {
  list: DeviceEvent[];
  total: number;
  totalExact: boolean;
}

/** GET /api/admin/device/event (code texts come in the request language, so the key holds it). */
export function useEvents(query: Partial<EventListQuery>) {
  const locale = useLocaleStore((s) => s.locale);
  return useQuery({
    queryKey: keys.list(query, locale),
    queryFn: () => get<EventPage>('/api/admin/device/event', query),
    placeholderData: keepPreviousData,
    refetchInterval: EVENTS_REFRESH_MS,
    staleTime: 0,
  });
}

/** GET /api/admin/device/event/counts: per code over the same time range. */
export function useEventCounts(query: { from?: string; to?: string; severity?: EventSeverity }) {
  const locale = useLocaleStore((s) => s.locale);
  return useQuery({
    queryKey: keys.counts(query, locale),
    queryFn: () => get<EventCount[]>('/api/admin/device/event/counts', query),
    placeholderData: keepPreviousData,
    refetchInterval: EVENTS_REFRESH_MS,
  });
}

export type EventStep = 'ack' | 'clear';

/** POST /api/admin/device/event/ack or /clear for one or many events, with an optional comment. */
export function useAdvanceEvents() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ step, ids, comment }: { step: EventStep; ids: number[]; comment?: string }) =>
      post<{ updated: number[]; skipped: number[] }>(`/api/admin/device/event/${step}`, { ids, ...(comment ? { comment } : {}) }),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: keys.all }), client.invalidateQueries({ queryKey: ['devices', 'detail'] })]),
  });
}
