import { keepPreviousData } from '@tanstack/react-query';
import { emailLogApi, type EmailLogQuery } from '@mowerline/contract';
import { useEndpoint } from '../api/endpoint-client.ts';

/** Every mail, sent or not, newest first (admins only). */
export const useEmailLogs = (query: EmailLogQuery) => useEndpoint(emailLogApi.list, { query }, { placeholderData: keepPreviousData });
