import { keepPreviousData } from '@tanstack/react-query';
import { systemLogApi, type SystemLogQuery } from '@mowerline/contract';
import { useEndpoint } from '../api/endpoint-client.ts';

/** The audit log (admins only), newest first. */
export const useSystemLogs = (query: SystemLogQuery, options: { enabled?: boolean } = {}) =>
  useEndpoint(systemLogApi.list, { query }, { placeholderData: keepPreviousData, enabled: options.enabled ?? true });
