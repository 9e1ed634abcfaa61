import { redirect, type LoaderFunction } from 'react-router';
import { forgetUnknownServerHost } from '../app/runtime-config.ts';
import { useTabBar } from '../layout/tab-bar.store.ts';
import { fetchUserInfo, logout } from '../session/session.api.ts';
import { useSession } from '../session/session.store.ts';
import { getToken } from '../session/token.ts';
import { useSettings } from '../settings/settings.store.ts';
import { checkVersion } from '../version/version-check.ts';
import { isAccessRedirect, runGuard, type GuardDeps, type GuardTarget } from './guard.ts';
import type { PageRoute } from './route-table.ts';

const deps: GuardDeps = {
  checkVersion,
  signedIn: () => !!getToken(),
  role: () => useSession.getState().user?.role,
  fetchUser: async () => void (await fetchUserInfo()),
  logout,
  menuFromServer: () => useSettings.getState().menuFromServer,
  serverMenu: () => useSettings.getState().serverMenu,
  // The notifications of the menu load come with it, so they load only in server-menu mode.
  fetchServerMenu: () => import('../settings/server-menu.ts').then((m) => m.loadServerMenu()),
};

type RouteAccess = Pick<GuardTarget, 'name' | 'requiresAuth' | 'roles'>;

/**
 * The route loader that runs the navigation guard (router/guard.ts) before a route shows; a page
 * that passes is recorded in the tab bar, a refused one redirects.
 */
export function guardLoader(access: RouteAccess, page?: PageRoute): LoaderFunction {
  return async ({ request }) => {
    await forgetUnknownServerHost();
    const url = new URL(request.url);
    const query = Object.fromEntries(url.searchParams);
    const destination = await runGuard({ ...access, path: url.pathname, query }, deps);
    if (destination) {
      if (page && isAccessRedirect(destination)) void import('./access-notice.ts').then((m) => m.tellAccessRefused(page, destination));
      return redirect(destination);
    }
    // REQUIRE_2FA_ROLES: an account that must enrol a second factor sees only the enrolment screen.
    if (access.requiresAuth && access.name !== 'user-center' && useSession.getState().user?.mustEnrolSecondFactor) {
      return redirect('/user/center?tab=security');
    }
    if (page) {
      const fullPath = url.search ? `${url.pathname}${url.search}` : url.pathname;
      useTabBar.getState().record({ title: page.locales.at(-1)!, name: page.name, fullPath, query, ignoreCache: page.ignoreCache });
    }
    return null;
  };
}

/** Public routes run the guard too (its version check); nothing else applies to them. */
export const publicLoader = (name: string) => guardLoader({ name, requiresAuth: false, roles: [] });
