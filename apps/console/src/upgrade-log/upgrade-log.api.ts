import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Page, UpgradeLogQuery, UpgradeRecord } from '@mowerline/contract';
import { get, request } from '../api/request.ts';

export type UpgradeLogFilter = Partial<Omit<UpgradeLogQuery, 'page' | 'pageSize'>>;

/** GET /api/admin/device/upgrade-log */
export function useUpgradeLog(query: Partial<UpgradeLogQuery>) {
  return useQuery({
    queryKey: ['ota', 'upgrade-log', query],
    queryFn: () => get<Page<UpgradeRecord>>('/api/admin/device/upgrade-log', query),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
  });
}

/** GET /api/admin/device/upgrade-log/export: the filtered log as a CSV file. */
export async function downloadUpgradeLog(filter: UpgradeLogFilter): Promise<void> {
  const blob = await request<Blob>({ method: 'GET', url: '/api/admin/device/upgrade-log/export', params: filter, responseType: 'blob' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `upgrade-log-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '')}.csv`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
