import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Page, SystemLog, SystemLogQuery } from '@mowerline/contract';
import { get } from '../api/request.ts';

/** GET /api/admin/system/log (admins only), newest first. */
export function useSystemLogs(query: SystemLogQuery, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['system-log', query],
    queryFn: () => get<Page<SystemLog>>('/api/admin/system/log', query),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}
