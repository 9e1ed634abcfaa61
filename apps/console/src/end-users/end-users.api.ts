import { keepPreviousData } from '@tanstack/react-query';
import { endUserApi, type DistributionBasis, type EndUserFilter, type EndUserListQuery, type UserLogQuery } from '@mowerline/contract';
import { call, saveBlob, useEndpoint, useEndpointMutation, type Invalidation } from '../api/endpoint-client.ts';

/** Online state and recent activity change while the drawer is open. */
const DETAIL_REFRESH_MS = 10_000;

/** GET /api/admin/end-user: one page, newest first (a `cursor` continues after the previous page). */
export const useEndUserList = (query: Partial<EndUserListQuery>) => useEndpoint(endUserApi.list, { query }, { placeholderData: keepPreviousData });

/** GET /api/admin/end-user/:id: profile, mowers with their online state, latest activity. */
export const useEndUserDetail = (id: number | undefined) =>
  useEndpoint(endUserApi.detail, { params: { id: id ?? 0 } }, { enabled: id !== undefined, refetchInterval: DETAIL_REFRESH_MS });

/** Every action changes the user's status: refresh the list, the detail and the log. */
const invalidates: Invalidation[] = [endUserApi];
const byId = (id: number) => ({ params: { id } });

export const useConfirmEndUser = () => useEndpointMutation(endUserApi.confirm, { toInput: byId, invalidates });
export const useSendReset = () => useEndpointMutation(endUserApi.sendReset, { toInput: byId, invalidates });
export const useCancelDeletion = () => useEndpointMutation(endUserApi.cancelDeletion, { toInput: byId, invalidates });
export const useDisableEndUser = () =>
  useEndpointMutation(endUserApi.disable, { toInput: ({ id, reason }: { id: number; reason: string }) => ({ params: { id }, body: { reason } }), invalidates });
export const useEnableEndUser = () =>
  useEndpointMutation(endUserApi.enable, { toInput: ({ id, reason }: { id: number; reason: string }) => ({ params: { id }, body: reason ? { reason } : {} }), invalidates });

/** GET /api/admin/end-user/log: what app users did, newest first. */
export const useUserLog = (query: Partial<UserLogQuery>) => useEndpoint(endUserApi.log, { query }, { placeholderData: keepPreviousData });

/** GET /api/admin/statistics/user-by-country */
export const useUsersByCountry = (basis: DistributionBasis, limit: number) => useEndpoint(endUserApi.byCountry, { query: { basis, limit } });

/** GET /api/admin/statistics/user-by-city, within one country when given. */
export const useUsersByCity = (basis: DistributionBasis, country: string | undefined, limit: number) =>
  useEndpoint(endUserApi.byCity, { query: { basis, limit, ...(country ? { country } : {}) } });

function stamp(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}${p(date.getMonth() + 1)}${p(date.getDate())}-${p(date.getHours())}${p(date.getMinutes())}${p(date.getSeconds())}`;
}

/** The filtered user list as CSV, saved as a file. */
export async function downloadEndUsers(filter: Partial<EndUserFilter>): Promise<void> {
  saveBlob(await call(endUserApi.exportCsv, { query: filter }), `end-users-${stamp(new Date())}.csv`);
}

/** The filtered user log as CSV, saved as a file. */
export async function downloadUserLog(filter: Partial<Omit<UserLogQuery, 'page' | 'pageSize' | 'cursor'>>): Promise<void> {
  saveBlob(await call(endUserApi.logExport, { query: filter }), `user-log-${stamp(new Date())}.csv`);
}
