import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { EmailLog, EmailLogQuery, Page } from '@mowerline/contract';
import { get } from '../api/request.ts';

/** GET /api/admin/system/email-log (admins only): every mail, sent or not, newest first. */
export function useEmailLogs(query: EmailLogQuery) {
  return useQuery({
    queryKey: ['email-log', query],
    queryFn: () => get<Page<EmailLog>>('/api/admin/system/email-log', query),
    placeholderData: keepPreviousData,
  });
}
