import { authApi, type UserInfo } from '@mowerline/contract';
import { call } from '../api/endpoint-client.ts';
import { forgetSession } from '../api/request.ts';
import { queryClient } from '../api/query-client.ts';
import { useTabBar } from '../layout/tab-bar.store.ts';
import { useSession } from './session.store.ts';
import { getToken } from './token.ts';

/** The signed-in user: the response becomes the session state (name, role). */
export async function fetchUserInfo(): Promise<UserInfo> {
  const user = await call(authApi.info);
  useSession.getState().setUser(user);
  return user;
}

/**
 * Spec §4 logout: resets user info, clears the token and the server menu even if the call fails;
 * the tabs and cached server data go too, so the next person to sign in starts clean.
 */
export async function logout(): Promise<void> {
  try {
    if (getToken()) await call(authApi.logout, {}, { silent: true });
  } catch {
    // The local half below happens whatever the server answered.
  } finally {
    forgetSession();
    useTabBar.getState().reset();
    void queryClient.cancelQueries();
    queryClient.clear();
  }
}
