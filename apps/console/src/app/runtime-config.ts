import { healthApi, type RuntimeConfig } from '@mowerline/contract';
import { call } from '../api/endpoint-client.ts';
import { getServerHost, SERVER_HOST_KEY } from '../session/token.ts';

let loading: Promise<RuntimeConfig> | null = null;

/** The runtime configuration from the server that served the console (never the chosen region), once. */
export function loadRuntimeConfig(): Promise<RuntimeConfig> {
  loading ??= call(healthApi.config, {}, { baseURL: '', silent: true }).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

let checked: Promise<void> | null = null;

/** Spec §4: on start, a stored server host that is not in the known list is cleared. */
export function forgetUnknownServerHost(): Promise<void> {
  checked ??= loadRuntimeConfig()
    .then(({ servers }) => {
      const host = getServerHost();
      if (host && !servers.some((server) => server.host === host)) sessionStorage.removeItem(SERVER_HOST_KEY);
    })
    // Without the list nothing can be judged; the stored choice stays.
    .catch(() => undefined);
  return checked;
}
