import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { DeviceDetail, DeviceHistory, DeviceListQuery, DevicePage, OnlineStats, ProductModel } from '@mowerline/contract';
import { get } from '../api/request.ts';
import { useLocaleStore } from '../locale/i18n.ts';

/** Status, battery and state change all the time; lists refresh on this beat while the page is visible. */
export const LIVE_REFRESH_MS = 5000;

export const deviceKeys = {
  all: ['devices'] as const,
  list: (query: Partial<DeviceListQuery>) => ['devices', 'list', query] as const,
  detail: (sn: string, locale: string) => ['devices', 'detail', sn, locale] as const,
  history: (sn: string, hours: number) => ['devices', 'history', sn, hours] as const,
  models: ['product', 'models'] as const,
};

/**
 * GET /api/admin/device: one page, refreshed live (TanStack stops the interval while the tab is
 * hidden). `cursor` continues from the previous page's last row when the caller has one.
 */
export function useDeviceList(query: Partial<DeviceListQuery>) {
  return useQuery({
    queryKey: deviceKeys.list(query),
    queryFn: () => get<DevicePage>('/api/admin/device', query),
    placeholderData: keepPreviousData,
    refetchInterval: LIVE_REFRESH_MS,
    staleTime: 0,
  });
}

/** GET /api/admin/device/:sn: latest telemetry, registry fields and recent events (texts in the reader's language). */
export function useDeviceDetail(sn: string | undefined) {
  const locale = useLocaleStore((s) => s.locale);
  return useQuery({
    queryKey: deviceKeys.detail(sn ?? '', locale),
    queryFn: () => get<DeviceDetail>(`/api/admin/device/${encodeURIComponent(sn!)}`),
    enabled: !!sn,
    refetchInterval: LIVE_REFRESH_MS,
    staleTime: 0,
  });
}

/** GET /api/admin/device/:sn/history over the last `hours`, bucketed by the server for a chart. */
export function useDeviceHistory(sn: string | undefined, hours: number) {
  return useQuery({
    queryKey: deviceKeys.history(sn ?? '', hours),
    queryFn: () => {
      const to = new Date();
      const from = new Date(to.getTime() - hours * 3600_000);
      return get<DeviceHistory>(`/api/admin/device/${encodeURIComponent(sn!)}/history`, { from: from.toISOString(), to: to.toISOString(), points: 120 });
    },
    enabled: !!sn,
    refetchInterval: 30_000,
  });
}

/** GET /api/admin/product/model: few and rarely changed, shared by filters and forms. */
export function useProductModels() {
  return useQuery({ queryKey: deviceKeys.models, queryFn: () => get<ProductModel[]>('/api/admin/product/model'), staleTime: 60_000 });
}

/** GET /api/admin/statistics/online: devices online now out of all registered (the list header). */
export function useOnlineNow() {
  return useQuery({
    queryKey: ['devices', 'online-now'],
    queryFn: () => {
      const to = new Date();
      return get<OnlineStats>('/api/admin/statistics/online', { from: new Date(to.getTime() - 3600_000).toISOString(), to: to.toISOString(), points: 10 });
    },
    refetchInterval: LIVE_REFRESH_MS,
    staleTime: 0,
  });
}
