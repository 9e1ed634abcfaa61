import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authApi, type ChangePasswordBody, type ProfileBody } from '@mowerline/contract';
import { call, endpointKey, useEndpoint, useEndpointMutation } from '../api/endpoint-client.ts';
import { useSession } from '../session/session.store.ts';

/** The profile as the server has it now. */
export const useUserInfo = () => useEndpoint(authApi.info);

/**
 * Saves the profile, then the fresh profile goes to the session too, so the navbar and the
 * greeting show the new name at once. A role switched in the message box menu stays switched.
 */
export function useUpdateProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ProfileBody) => call(authApi.updateProfile, { body }),
    onSuccess: async () => {
      const fresh = await client.fetchQuery({ queryKey: endpointKey(authApi.info, {}), queryFn: () => call(authApi.info), staleTime: 0 });
      const { user, setUser } = useSession.getState();
      setUser({ ...fresh, role: user?.role ?? fresh.role });
    },
  });
}

/** This session stays signed in, every other one is signed out. */
export const useChangePassword = () => useEndpointMutation(authApi.changePassword, { toInput: (body: ChangePasswordBody) => ({ body }) });
