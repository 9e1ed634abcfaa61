import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChangePasswordBody, ProfileBody, UserInfo } from '@mowerline/contract';
import { get, put } from '../api/request.ts';
import { useSession } from '../session/session.store.ts';

export const userInfoKey = ['user', 'info'] as const;

/** GET /api/admin/user/info: the profile as the server has it now. */
export function useUserInfo() {
  return useQuery({ queryKey: userInfoKey, queryFn: () => get<UserInfo>('/api/admin/user/info') });
}

/**
 * PUT /api/admin/user/profile, then the fresh profile goes to the session too, so the navbar and
 * the greeting show the new name at once. A role switched in the message box menu stays switched.
 */
export function useUpdateProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ProfileBody) => put<unknown>('/api/admin/user/profile', body),
    onSuccess: async () => {
      const fresh = await client.fetchQuery({ queryKey: userInfoKey, queryFn: () => get<UserInfo>('/api/admin/user/info'), staleTime: 0 });
      const { user, setUser } = useSession.getState();
      setUser({ ...fresh, role: user?.role ?? fresh.role });
    },
  });
}

/** PUT /api/admin/user/password: this session stays signed in, every other one is signed out. */
export function useChangePassword() {
  return useMutation({ mutationFn: (body: ChangePasswordBody) => put<null>('/api/admin/user/password', body) });
}
