import { useMutation } from '@tanstack/react-query';
import {
  authApi,
  errors,
  secondFactorChallengeSchema,
  twoFactorApi,
  type LoginBody,
  type LoginResult,
  type RegisterBody,
  type ResetPasswordBody,
  type SecondFactorBody,
  type SecondFactorChallenge,
} from '@mowerline/contract';
import { call, useEndpointMutation } from '../api/endpoint-client.ts';
import { ApiError, forgetSession } from '../api/request.ts';
import { queryClient } from '../api/query-client.ts';
import { useTabBar } from '../layout/tab-bar.store.ts';
import { clearToken, setSecurityToken, setToken } from '../session/token.ts';

/**
 * Sign-in. Success starts a clean session: whatever an earlier user left (user info, tabs, cached
 * data) goes, the access token is kept (local storage when remembered, else session storage) and
 * so is the browser's security token. Spec §4: on failure the token is cleared and the error
 * rethrown.
 */
async function signIn(body: LoginBody): Promise<void> {
  try {
    // The second-factor answer is the next step of the form, not an error to toast.
    const result = await call(authApi.signIn, { body }, { silentCodes: [errors.SECOND_FACTOR_REQUIRED.code] });
    startSession(result, body.remember ?? false);
  } catch (error) {
    clearToken();
    throw error;
  }
}

function startSession(result: LoginResult, remember: boolean): void {
  forgetSession();
  useTabBar.getState().reset();
  queryClient.clear();
  setToken(result.access_token, remember);
  setSecurityToken(result.security_token);
}

export const useSignIn = () => useMutation({ mutationFn: signIn });

/** The challenge of a right password on an account with a second factor (SECOND_FACTOR_REQUIRED), else null. */
export function secondFactorChallenge(error: unknown): SecondFactorChallenge | null {
  if (!(error instanceof ApiError) || error.code !== errors.SECOND_FACTOR_REQUIRED.code) return null;
  const parsed = secondFactorChallengeSchema.safeParse(error.data);
  return parsed.success ? parsed.data : null;
}

/** The second step: the authenticator code or a recovery code for the challenge; success signs in like a password would. */
async function finishSignIn(input: { body: SecondFactorBody; remember: boolean }): Promise<void> {
  const result = await call(twoFactorApi.loginSecondFactor, { body: input.body });
  startSession(result, input.remember);
}

export const useSecondFactor = () => useMutation({ mutationFn: finishSignIn });

/** A fresh single-use proof-of-work challenge, as hard as the username's failures call for. */
export const useCaptcha = () => useEndpointMutation(authApi.captcha, { toInput: (username: string) => ({ body: username ? { username } : {} }) });

/** Whether a refused sign-in asks for a captcha on the next attempt (41001 data, or 41002/41003). */
export function captchaWanted(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.code === 41002 || error.code === 41003) return true;
  return (error.data as { captchaRequired?: unknown } | null)?.captchaRequired === true;
}

export const useForgotPassword = () => useEndpointMutation(authApi.forgotPassword, { toInput: (username: string) => ({ body: { username } }) });

export const useResetPassword = () => useEndpointMutation(authApi.resetPassword, { toInput: (body: ResetPasswordBody) => ({ body }) });

export const useRegister = () => useEndpointMutation(authApi.register, { toInput: (body: RegisterBody) => ({ body }) });
