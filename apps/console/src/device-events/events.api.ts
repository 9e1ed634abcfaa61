import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deviceEventsApi, devicesApi, type EndpointDef, type EventListQuery, type EventSeverity } from '@mowerline/contract';
import { call, endpointKey } from '../api/endpoint-client.ts';
import { useLocaleStore } from '../locale/i18n.ts';

/** New faults arrive all the time: the page refreshes on this beat while visible. */
export const EVENTS_REFRESH_MS = 10_000;

/** Exception events, newest first (code texts come in the request language, so the key holds it). */
export function useEvents(query: Partial<EventListQuery>) {
  const locale = useLocaleStore((s) => s.locale);
  return useQuery({
    queryKey: [...endpointKey(deviceEventsApi.list, { query }), locale],
    queryFn: () => call(deviceEventsApi.list, { query }),
    placeholderData: keepPreviousData,
    refetchInterval: EVENTS_REFRESH_MS,
    staleTime: 0,
  });
}

/** Per code over the same time range. */
export function useEventCounts(query: { from?: string; to?: string; severity?: EventSeverity }) {
  const locale = useLocaleStore((s) => s.locale);
  return useQuery({
    queryKey: [...endpointKey(deviceEventsApi.counts, { query }), locale],
    queryFn: () => call(deviceEventsApi.counts, { query }),
    placeholderData: keepPreviousData,
    refetchInterval: EVENTS_REFRESH_MS,
  });
}

export type EventStep = 'ack' | 'clear';

/** What a step changes: the events, their counts and the recent events in a device's detail. */
const refreshed: EndpointDef[] = [deviceEventsApi.list, deviceEventsApi.counts, devicesApi.detail];

/** Acknowledges or clears one or many events, with an optional comment. */
export function useAdvanceEvents() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ step, ids, comment }: { step: EventStep; ids: number[]; comment?: string }) => call(deviceEventsApi[step], { body: { ids, ...(comment ? { comment } : {}) } }),
    onSuccess: () => Promise.all(refreshed.map((def) => client.invalidateQueries({ queryKey: endpointKey(def) }))),
  });
}
