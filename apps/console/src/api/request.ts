import axios, { type AxiosError, type AxiosRequestConfig, type AxiosResponse } from 'axios';
import { Message } from '@arco-design/web-react';
import { errors, type Envelope } from '@mowerline/contract';
import { confirmStepUp, goToEnrolment } from './second-factor-policy.ts';
import { t, useLocaleStore } from '../locale/i18n.ts';
import { useSession } from '../session/session.store.ts';
import { useSettings } from '../settings/settings.store.ts';
import { getSecurityToken, getServerHost, getToken, setSecurityToken } from '../session/token.ts';

/** Spec §9: toasts stay 5 s; requests have no timeout unless one is asked for. */
export const TOAST_MS = 5000;

/** A rejected call: the envelope's code and message, and its data (e.g. `captchaRequired`). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: number | undefined,
    readonly data: unknown = null,
    readonly httpStatus?: number,
  ) {
    super(message);
  }
}

export interface RequestOptions extends AxiosRequestConfig {
  /** Don't toast on failure (the caller shows the error its own way, or it is meant to be silent). */
  silent?: boolean;
  /** Don't toast these codes only: answers the caller turns into its next step. */
  silentCodes?: readonly number[];
  /** Set on the retry after a step-up confirmation, so a refusal cannot loop. */
  steppedUp?: boolean;
}

// A repeated query parameter is written `tag=a&tag=b` (the server's form), not axios' `tag[]=a`.
const http = axios.create({ timeout: 0, paramsSerializer: { indexes: null } });

http.interceptors.request.use((config) => {
  // The region chosen in the navbar; a call may pin its own base (runtime config comes from this origin).
  if (config.baseURL === undefined) config.baseURL = getServerHost();
  const token = getToken();
  if (token) config.headers.Authorization = `Bearer ${token}`;
  const trust = getSecurityToken();
  if (trust) config.headers['X-Security-Token'] = trust;
  config.headers['Accept-Language'] = useLocaleStore.getState().locale;
  return config;
});

function isBinary(response: AxiosResponse): boolean {
  const type = String(response.headers['content-type'] ?? '');
  return response.config.responseType === 'blob' || /zip|octet-stream|text\/csv/.test(type);
}

/** Translates axios' own client messages into the console language; no answer at all is a network error. */
function clientMessage(error: AxiosError): string {
  if (error.code === 'ERR_CANCELED' || error.message === 'Request aborted') return t('request.aborted');
  if (error.code === 'ETIMEDOUT' || /timeout/i.test(error.message)) return t('request.timeout', { ms: error.config?.timeout ?? 0 });
  return t('request.networkError');
}

/** Spec §4: logout resets user info, clears the token and the server menu. */
export function forgetSession(): void {
  useSession.getState().reset();
  useSettings.getState().setServerMenu([]);
}

function toast(message: string, silent?: boolean) {
  if (!silent) Message.error({ content: message, duration: TOAST_MS });
}

/**
 * The one request wrapper and error policy: unwraps the envelope and resolves with its
 * `data`; a non-zero code or HTTP error toasts for 5 s and rejects with an ApiError; a 401 keeps a
 * renewed security token, logs out and reloads; blob/zip/CSV responses pass through unchecked.
 */
export async function request<T>(options: RequestOptions): Promise<T> {
  const { silent: quiet, silentCodes, steppedUp, ...config } = options;
  let response: AxiosResponse;
  try {
    response = await http.request(config);
  } catch (err) {
    const error = err as AxiosError<Partial<Envelope<{ security_token?: string } | null>>>;
    const body = error.response?.data;
    // Spec §8 401: keep a renewed security token; forget the dead session and reload (the guard then
    // asks to sign in). A request that carried no token had no session to forget, so it only fails.
    if (error.response?.status === 401) {
      const renewed = body?.data?.security_token;
      if (renewed) setSecurityToken(renewed);
      if (error.config?.headers?.Authorization) {
        forgetSession();
        window.location.reload();
      }
    }
    const message = body?.msg || (error.response ? t('request.error') : clientMessage(error));
    // A step-up action without a recent confirmation: ask for the second factor, then try once more.
    if (body?.code === errors.STEP_UP_REQUIRED.code && !steppedUp && (await confirmStepUp())) return request<T>({ ...options, steppedUp: true });
    // An account that must enrol a second factor first: to the enrolment screen, without a toast per call.
    if (body?.code === errors.TWO_FACTOR_ENROL_REQUIRED.code) {
      goToEnrolment();
      throw new ApiError(message, body.code, null, error.response?.status);
    }
    const silent = quiet || (body?.code !== undefined && !!silentCodes?.includes(body.code)) || body?.code === errors.STEP_UP_REQUIRED.code;
    if (error.response?.status !== 401) toast(message, silent);
    throw new ApiError(message, body?.code, body?.data ?? null, error.response?.status);
  }
  if (isBinary(response)) return response.data as T;
  const body = response.data as Envelope<T>;
  if (body.code !== 0) {
    const message = body.msg || 'Error';
    toast(message, quiet || !!silentCodes?.includes(body.code));
    throw new ApiError(message, body.code, body.data, response.status);
  }
  return body.data;
}

