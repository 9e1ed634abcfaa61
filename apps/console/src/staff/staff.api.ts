import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Page, RoleInfo, StaffCreateBody, StaffListQuery, StaffUpdateBody, StaffUser } from '@mowerline/contract';
import { get, post, put } from '../api/request.ts';
import { useLocaleStore } from '../locale/i18n.ts';

export const staffKeys = {
  all: ['staff'] as const,
  list: (query: StaffListQuery) => ['staff', 'list', query] as const,
  roles: (locale: string) => ['staff', 'roles', locale] as const,
};

/** GET /api/admin/user: one page of staff accounts; the previous page stays on screen while the next loads. */
export function useStaffList(query: StaffListQuery) {
  return useQuery({
    queryKey: staffKeys.list(query),
    queryFn: () => get<Page<StaffUser>>('/api/admin/user', query),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/admin/user/role: names and descriptions come in the request language, so the key holds it. */
export function useRoles() {
  const locale = useLocaleStore((s) => s.locale);
  return useQuery({ queryKey: staffKeys.roles(locale), queryFn: () => get<RoleInfo[]>('/api/admin/user/role') });
}

/** Every staff change can move role member counts and list rows, so it refreshes the whole feature. */
function useStaffMutation<Body>(send: (body: Body) => Promise<StaffUser>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => client.invalidateQueries({ queryKey: staffKeys.all }),
  });
}

export const useCreateStaff = () => useStaffMutation((body: StaffCreateBody) => post<StaffUser>('/api/admin/user', body));
export const useUpdateStaff = () => useStaffMutation((body: StaffUpdateBody) => put<StaffUser>('/api/admin/user', body));
