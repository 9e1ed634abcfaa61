import { authApi, twoFactorApi, type StepUpBody } from '@mowerline/contract';
import { useEndpoint, useEndpointMutation } from '../api/endpoint-client.ts';
import { fetchUserInfo } from '../session/session.api.ts';
import { useSession } from '../session/session.store.ts';

/** My factors, recovery codes left and whether my role must have one. */
export const useTwoFactorStatus = () => useEndpoint(twoFactorApi.status);

export const useStartTotp = () => useEndpointMutation(twoFactorApi.totpStart, { toInput: (name: string) => ({ body: { name } }) });

/** After enrolment or removal the session's user info is fetched again (`syncUser`), so the guard knows. */
export const useConfirmTotp = () =>
  useEndpointMutation(twoFactorApi.totpConfirm, {
    toInput: (body: { factorId: number; code: string }) => ({ body }),
    invalidates: [twoFactorApi.status, authApi.info],
  });

export const useRemoveFactor = () =>
  useEndpointMutation(twoFactorApi.removeFactor, { toInput: (id: number) => ({ params: { id } }), invalidates: [twoFactorApi.status, authApi.info] });

export const useRegenerateCodes = () => useEndpointMutation(twoFactorApi.regenerateRecoveryCodes, { invalidates: [twoFactorApi.status] });

export const useStepUp = () => useEndpointMutation(twoFactorApi.stepUp, { toInput: (body: StepUpBody) => ({ body }), invalidates: [twoFactorApi.status] });

export const useMySessions = () => useEndpoint(twoFactorApi.mySessions);
export const useRevokeMySession = () =>
  useEndpointMutation(twoFactorApi.revokeMySession, { toInput: (sid: string) => ({ params: { sid } }), invalidates: [twoFactorApi.mySessions] });
export const useRevokeOtherSessions = () => useEndpointMutation(twoFactorApi.revokeOtherSessions, { invalidates: [twoFactorApi.mySessions] });

export const useStaffSessions = (id: number) => useEndpoint(twoFactorApi.staffSessions, { params: { id } });
export const useRevokeStaffSession = () =>
  useEndpointMutation(twoFactorApi.revokeStaffSession, {
    toInput: (p: { id: number; sid: string }) => ({ params: p }),
    invalidates: [twoFactorApi.staffSessions],
  });
export const useResetStaffFactors = () => useEndpointMutation(twoFactorApi.resetStaffFactors, { toInput: (id: number) => ({ params: { id } }) });

/** Refreshes the session's user info after a factor change, keeping a role switched in the message box. */
export async function syncUser(): Promise<void> {
  const role = useSession.getState().user?.role;
  const fresh = await fetchUserInfo();
  if (role && role !== fresh.role) useSession.getState().setUser({ ...fresh, role });
}
