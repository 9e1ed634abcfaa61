import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { staffApi, type StaffCreateBody, type StaffListQuery, type StaffUpdateBody } from '@mowerline/contract';
import { call, endpointKey, useEndpoint, useEndpointMutation, type Invalidation } from '../api/endpoint-client.ts';
import { useLocaleStore } from '../locale/i18n.ts';

/** One page of staff accounts; the previous page stays on screen while the next loads. */
export const useStaffList = (query: StaffListQuery) => useEndpoint(staffApi.list, { query }, { placeholderData: keepPreviousData });

/** Names and descriptions come in the request language, so the key holds it. */
export function useRoles() {
  const locale = useLocaleStore((s) => s.locale);
  return useQuery({ queryKey: [...endpointKey(staffApi.roles), locale], queryFn: () => call(staffApi.roles) });
}

/** Every staff change can move role member counts and list rows, so it refreshes both. */
const invalidates: Invalidation[] = [staffApi.list, staffApi.roles];

export const useCreateStaff = () => useEndpointMutation(staffApi.create, { toInput: (body: StaffCreateBody) => ({ body }), invalidates });
export const useUpdateStaff = () => useEndpointMutation(staffApi.update, { toInput: (body: StaffUpdateBody) => ({ body }), invalidates });
