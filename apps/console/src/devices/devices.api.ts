import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { devicesApi, productApi, statisticsApi, type DeviceListQuery } from '@mowerline/contract';
import { call, endpointKey, useEndpoint, useEndpointMutation } from '../api/endpoint-client.ts';
import { useLocaleStore } from '../locale/i18n.ts';

/** Status, battery and state change all the time; lists refresh on this beat while the page is visible. */
export const LIVE_REFRESH_MS = 5000;

/**
 * One page of devices, refreshed live (TanStack stops the interval while the tab is hidden).
 * `cursor` continues from the previous page's last row when the caller has one.
 */
export function useDeviceList(query: Partial<DeviceListQuery>) {
  return useEndpoint(devicesApi.list, { query }, { placeholderData: keepPreviousData, refetchInterval: LIVE_REFRESH_MS, staleTime: 0 });
}

/** The regions devices are registered in (a new region appears once an SN is registered in it). */
export const useDeviceRegions = () => useEndpoint(devicesApi.regions, {}, { staleTime: 60_000 });

/** Latest telemetry, registry fields and recent events; the texts come in the reader's language, so the key holds it. */
export function useDeviceDetail(sn: string | undefined) {
  const locale = useLocaleStore((s) => s.locale);
  const input = { params: { sn: sn ?? '' } };
  return useQuery({
    queryKey: [...endpointKey(devicesApi.detail, input), locale],
    queryFn: () => call(devicesApi.detail, input),
    enabled: !!sn,
    refetchInterval: LIVE_REFRESH_MS,
    staleTime: 0,
  });
}

/** A device's telemetry over the last `hours`, bucketed by the server for a chart. */
export function useDeviceHistory(sn: string | undefined, hours: number) {
  const params = { sn: sn ?? '' };
  return useQuery({
    // The time range moves with every refresh: the key names the span, not the instants.
    queryKey: [...endpointKey(devicesApi.history, { params }), { hours }],
    queryFn: () => {
      const to = new Date();
      const from = new Date(to.getTime() - hours * 3600_000);
      return call(devicesApi.history, { params, query: { from: from.toISOString(), to: to.toISOString(), points: 120 } });
    },
    enabled: !!sn,
    refetchInterval: 30_000,
  });
}

/** Product models: few and rarely changed, shared by filters and forms. */
export const useProductModels = () => useEndpoint(productApi.listModels, {}, { staleTime: 60_000 });

/** Devices online now out of all registered (the list header). */
export function useOnlineNow() {
  return useQuery({
    queryKey: [...endpointKey(statisticsApi.online), 'last-hour'],
    queryFn: () => {
      const to = new Date();
      return call(statisticsApi.online, { query: { from: new Date(to.getTime() - 3600_000).toISOString(), to: to.toISOString(), points: 10 } });
    },
    refetchInterval: LIVE_REFRESH_MS,
    staleTime: 0,
  });
}

/** Staff clear the flag of a device that stayed far above its ingest limits (audited; it stays limited). */
export const useClearDeviceFlag = () => useEndpointMutation(devicesApi.clearFlag, { toInput: (sn: string) => ({ params: { sn } }), invalidates: [devicesApi.detail] });
