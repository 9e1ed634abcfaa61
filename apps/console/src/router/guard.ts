import { appRoutes, can, DEFAULT_ROUTE, flattenRoutes, sortRoutes, type RoleRule, type RouteDef } from '@mowerline/contract';

/**
 * The navigation guard's decisions as pure functions; src/router/guard-loader.ts
 * feeds them the real session, settings and calls. Nothing here touches the DOM or storage.
 */

export const LOGIN = 'login';
export const NOT_FOUND = 'notFound';
export const REDIRECT = 'redirect';
export const NOT_FOUND_PATH = '/not-found';
export const LOGIN_PATH = '/login';

/**
 * Spec §5: with server-driven menus a route must be in the server menu or in this list. The
 * redirect helper is added because it only re-navigates to a route that is checked again.
 */
export const SERVER_MENU_ALLOWED: readonly string[] = [NOT_FOUND, LOGIN, REDIRECT];

/** Where a navigation wants to go, with the access rules of the route and its parent group. */
export interface GuardTarget {
  name: string;
  path: string;
  query: Record<string, string>;
  requiresAuth: boolean;
  /** Role rules of every matched level (group, then page): all must allow. */
  roles: ReadonlyArray<readonly RoleRule[]>;
}

/** Spec §5 route access: no auth requirement, no roles, the wildcard, or the current role. */
export function routeAllowed(target: Pick<GuardTarget, 'requiresAuth' | 'roles'>, role: string | undefined): boolean {
  if (!target.requiresAuth) return true;
  return target.roles.every((rules) => can(role, rules));
}

/** The login location carrying the target route name and its query. */
export function loginRedirect(target: Pick<GuardTarget, 'name' | 'query'>): string {
  const { redirect: _ignored, ...query } = target.query;
  const params = new URLSearchParams({ redirect: target.name, ...query });
  return `${LOGIN_PATH}?${params}`;
}

/** Absolute path of a named leaf route of the table, if there is one. */
export function pathOfRoute(name: string, routes: readonly RouteDef[] = appRoutes): string | undefined {
  return flattenRoutes(routes).find((route) => route.name === name)?.fullPath;
}

/** After sign-in: back to the route named in `redirect` with the rest of the query, else workplace. */
export function afterLoginLocation(search: URLSearchParams | string, routes: readonly RouteDef[] = appRoutes): string {
  const query = new URLSearchParams(search);
  const name = query.get('redirect');
  query.delete('redirect');
  const path = (name && pathOfRoute(name, routes)) || DEFAULT_ROUTE.fullPath;
  const rest = query.toString();
  return rest ? `${path}?${rest}` : path;
}

/**
 * Spec §5: the first route the role may open, in menu order (default role for this lookup:
 * admin). Only leaves are returned, because a group has no page of its own.
 */
export function firstPermittedRoute(role: string | undefined, routes: readonly RouteDef[] = appRoutes): string | undefined {
  const lookupRole = role ?? 'admin';
  for (const group of sortRoutes(routes)) {
    if (!can(lookupRole, group.meta.roles)) continue;
    if (!group.children) return group.path;
    const child = group.children.find((c) => !c.meta.hideInMenu && can(lookupRole, c.meta.roles));
    if (child) return `${group.path}/${child.path}`;
  }
  return undefined;
}

/** Whether a route name appears anywhere in a (server) menu tree. */
export function menuHasRoute(menu: readonly RouteDef[], name: string): boolean {
  return menu.some((item) => item.name === name || (item.children ? menuHasRoute(item.children, name) : false));
}

export interface PermissionInput {
  target: GuardTarget;
  role: string | undefined;
  menuFromServer: boolean;
  serverMenu: readonly RouteDef[];
  routes?: readonly RouteDef[];
}

/** Spec §5 permission check: `null` lets the navigation through, a string is where to go instead. */
export function checkPermission({ target, role, menuFromServer, serverMenu, routes = appRoutes }: PermissionInput): string | null {
  const allowed = routeAllowed(target, role);
  if (menuFromServer) {
    const listed = menuHasRoute(serverMenu, target.name) || SERVER_MENU_ALLOWED.includes(target.name);
    return listed && allowed ? null : NOT_FOUND_PATH;
  }
  if (allowed) return null;
  return firstPermittedRoute(role, routes) ?? NOT_FOUND_PATH;
}

/**
 * Whether the guard's answer sends a signed-in person elsewhere because their role may not open
 * the page (the first page the role may open), rather than to sign in or to not-found.
 */
export function isAccessRedirect(destination: string): boolean {
  return destination !== NOT_FOUND_PATH && !destination.startsWith(LOGIN_PATH);
}

/** What the guard needs from the running console; injected so the order can be tested. */
export interface GuardDeps {
  /** Step 1: compares version.json with the stored version; never blocks, never throws. */
  checkVersion(): void;
  signedIn(): boolean;
  role(): string | undefined;
  /** Loads the signed-in user's info (name, role) into the session; rejects on failure. */
  fetchUser(): Promise<void>;
  /** Logs out locally whatever the server says. */
  logout(): Promise<void>;
  menuFromServer(): boolean;
  serverMenu(): readonly RouteDef[];
  /** Loads the server menu when server menus are on and none is loaded yet. */
  fetchServerMenu(): Promise<void>;
}

/**
 * The guard in the spec's order: version check, record the route, sign-in check, permission
 * check. Resolves with `null` when the target may be shown — the caller then records it in the
 * tab bar, so a route that is redirected away never leaves a tab behind — or with the location
 * to go to instead.
 */
export async function runGuard(target: GuardTarget, deps: GuardDeps): Promise<string | null> {
  deps.checkVersion();
  if (!target.requiresAuth) return null;
  if (!deps.signedIn()) return loginRedirect(target);
  if (!deps.role()) {
    try {
      await deps.fetchUser();
    } catch {
      await deps.logout();
      return loginRedirect(target);
    }
  }
  const menuFromServer = deps.menuFromServer();
  if (menuFromServer && deps.serverMenu().length === 0 && !SERVER_MENU_ALLOWED.includes(target.name)) {
    await deps.fetchServerMenu().catch(() => undefined);
  }
  return checkPermission({ target, role: deps.role(), menuFromServer, serverMenu: deps.serverMenu() });
}
