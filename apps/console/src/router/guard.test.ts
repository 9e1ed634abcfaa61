import { describe, expect, it, vi } from 'vitest';
import type { RouteDef } from '@mowerline/contract';
import {
  afterLoginLocation,
  checkPermission,
  firstPermittedRoute,
  isAccessRedirect,
  loginRedirect,
  menuHasRoute,
  routeAllowed,
  runGuard,
  type GuardDeps,
  type GuardTarget,
} from './guard.ts';

const target = (over: Partial<GuardTarget> = {}): GuardTarget => ({
  name: 'system-user',
  path: '/system/system-user',
  query: {},
  requiresAuth: true,
  roles: [['*'], ['admin']],
  ...over,
});

const leaf = (path: string, name: string, roles: RouteDef['meta']['roles'], extra: Partial<RouteDef['meta']> = {}): RouteDef => ({
  path,
  name,
  meta: { locale: name, requiresAuth: true, roles, ...extra },
});
const table: RouteDef[] = [
  { ...leaf('/system', 'system', ['*'], { order: 4 }), children: [leaf('system-user', 'system-user', ['admin'])] },
  { ...leaf('/task', 'task', ['*'], { order: 1 }), children: [leaf('task-list', 'task-list', ['user'])] },
  {
    ...leaf('/dashboard', 'dashboard', ['*'], { order: 0 }),
    children: [leaf('hidden', 'hidden', ['*'], { hideInMenu: true }), leaf('workplace', 'workplace', ['admin'])],
  },
];

describe('route access', () => {
  it('passes without auth, without roles, with the wildcard or the current role', () => {
    expect(routeAllowed({ requiresAuth: false, roles: [['admin']] }, undefined)).toBe(true);
    expect(routeAllowed({ requiresAuth: true, roles: [[]] }, 'user')).toBe(true);
    expect(routeAllowed({ requiresAuth: true, roles: [['*']] }, 'user')).toBe(true);
    expect(routeAllowed({ requiresAuth: true, roles: [['*'], ['admin']] }, 'admin')).toBe(true);
    expect(routeAllowed({ requiresAuth: true, roles: [['*'], ['admin']] }, 'user')).toBe(false);
    expect(routeAllowed({ requiresAuth: true, roles: [['admin'], ['*']] }, 'user')).toBe(false);
  });

  it('finds the first permitted leaf in menu order, admin by default, skipping hidden pages', () => {
    expect(firstPermittedRoute('user', table)).toBe('/task/task-list');
    expect(firstPermittedRoute(undefined, table)).toBe('/dashboard/workplace');
    expect(firstPermittedRoute('nobody', table)).toBeUndefined();
  });

  it('sends a refused route to the first permitted one, else to not-found', () => {
    const base = { menuFromServer: false, serverMenu: [], routes: table };
    expect(checkPermission({ ...base, target: target(), role: 'admin' })).toBeNull();
    expect(checkPermission({ ...base, target: target(), role: 'user' })).toBe('/task/task-list');
    expect(checkPermission({ ...base, target: target(), role: 'nobody' })).toBe('/not-found');
  });

  it('with server menus needs the route in the menu or in the allowed list', () => {
    const serverMenu = [{ ...leaf('/dashboard', 'dashboard', ['*']), children: [leaf('workplace', 'workplace', ['*'])] }];
    const base = { menuFromServer: true, serverMenu, role: 'admin' };
    expect(checkPermission({ ...base, target: target({ name: 'workplace', roles: [['*']] }) })).toBeNull();
    expect(checkPermission({ ...base, target: target() })).toBe('/not-found');
    expect(checkPermission({ ...base, target: target({ name: 'notFound', requiresAuth: false }) })).toBeNull();
    expect(checkPermission({ ...base, target: target({ name: 'login', requiresAuth: false }) })).toBeNull();
    // Listed but the role is refused: still not-found.
    const listed = [leaf('/system', 'system-user', ['*'])];
    expect(checkPermission({ ...base, serverMenu: listed, role: 'user', target: target() })).toBe('/not-found');
    expect(menuHasRoute(serverMenu, 'workplace')).toBe(true);
    expect(menuHasRoute(serverMenu, 'system-user')).toBe(false);
  });
});

describe('why the guard sent someone elsewhere', () => {
  it('calls a redirect to a permitted page an access refusal, not sign-in or not-found', () => {
    expect(isAccessRedirect('/dashboard/workplace')).toBe(true);
    expect(isAccessRedirect('/login?redirect=system-user')).toBe(false);
    expect(isAccessRedirect('/not-found')).toBe(false);
  });
});

describe('sign-in redirect', () => {
  it('carries the target name and query to login, and back after sign-in', () => {
    const to = loginRedirect(target({ query: { page: '2', q: 'a b' } }));
    expect(to).toBe('/login?redirect=system-user&page=2&q=a+b');
    expect(afterLoginLocation(to.split('?')[1]!)).toBe('/system/system-user?page=2&q=a+b');
  });

  it('goes to workplace when the redirect is missing or names no page', () => {
    expect(afterLoginLocation('')).toBe('/dashboard/workplace');
    expect(afterLoginLocation('redirect=nope&x=1')).toBe('/dashboard/workplace?x=1');
  });
});

function deps(over: Partial<GuardDeps> = {}): GuardDeps & { calls: string[] } {
  const calls: string[] = [];
  let role: string | undefined;
  return {
    calls,
    checkVersion: () => void calls.push('version'),
    signedIn: () => (calls.push('signedIn'), true),
    role: () => role,
    fetchUser: async () => {
      calls.push('fetchUser');
      role = 'admin';
    },
    logout: async () => void calls.push('logout'),
    menuFromServer: () => false,
    serverMenu: () => [],
    fetchServerMenu: async () => void calls.push('fetchServerMenu'),
    ...over,
  };
}

describe('runGuard', () => {
  it('runs version check, sign-in check, user info, then permission', async () => {
    const d = deps();
    await expect(runGuard(target(), d)).resolves.toBeNull();
    expect(d.calls).toEqual(['version', 'signedIn', 'fetchUser']);
  });

  it('lets public routes through after the version check', async () => {
    const d = deps({ signedIn: () => false });
    await expect(runGuard(target({ name: 'login', requiresAuth: false }), d)).resolves.toBeNull();
    expect(d.calls).toEqual(['version']);
  });

  it('redirects to login when signed out', async () => {
    const d = deps({ signedIn: () => false });
    await expect(runGuard(target({ query: { a: '1' } }), d)).resolves.toBe('/login?redirect=system-user&a=1');
  });

  it('logs out and redirects when the user info cannot be fetched', async () => {
    const d = deps({ fetchUser: vi.fn().mockRejectedValue(new Error('401')) });
    await expect(runGuard(target(), d)).resolves.toBe('/login?redirect=system-user');
    expect(d.calls).toContain('logout');
  });

  it('does not refetch a known role', async () => {
    const d = deps({ role: () => 'user' });
    await expect(runGuard(target({ roles: [['*']] }), d)).resolves.toBeNull();
    expect(d.calls).not.toContain('fetchUser');
  });

  it('loads the server menu once when server menus are on', async () => {
    let menu: RouteDef[] = [];
    const d = deps({
      role: () => 'admin',
      menuFromServer: () => true,
      serverMenu: () => menu,
      fetchServerMenu: async () => {
        menu = [leaf('/x', 'system-user', ['*'])];
      },
    });
    await expect(runGuard(target(), d)).resolves.toBeNull();
    await expect(runGuard(target({ name: 'workplace' }), d)).resolves.toBe('/not-found');
  });

  it('refuses every route but the allowed list when the server menu cannot load', async () => {
    const d = deps({ role: () => 'admin', menuFromServer: () => true, fetchServerMenu: () => Promise.reject(new Error('down')) });
    await expect(runGuard(target(), d)).resolves.toBe('/not-found');
  });
});
