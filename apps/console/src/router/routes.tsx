import type { ComponentType } from 'react';
import { redirect, type RouteObject } from 'react-router';
import { appRoutes, DEFAULT_ROUTE, sortRoutes } from '@mowerline/contract';
import { loadAllStrings } from '../locale/i18n.ts';
import { LoginPage } from '../login/LoginPage.tsx';
import { PageLoading } from '../app/PageLoading.tsx';
import { RootRoute } from '../app/RootRoute.tsx';
import { RouteError } from '../app/RouteError.tsx';
import { guardLoader, publicLoader } from './guard-loader.ts';
import { LOGIN, NOT_FOUND, REDIRECT } from './guard.ts';
import { pageRoutes, type PageRoute } from './route-table.ts';

/**
 * A lazily loaded route component, with every feature's strings (they stay out of the sign-in
 * page's entry chunk, see locale/i18n.ts).
 */
const withStrings = (load: () => Promise<{ default: ComponentType }>) => async () => {
  const [module] = await Promise.all([load(), loadAllStrings()]);
  return { Component: module.default };
};

/** What a page route carries for the layout (which page to draw) and the breadcrumbs. */
export interface PageHandle {
  page: PageRoute;
}

/** A group path alone (`/system`) opens its first page instead of not-found. */
function groupRedirects(): RouteObject[] {
  return sortRoutes(appRoutes).flatMap((group) => {
    const first = group.children?.find((child) => !child.meta.hideInMenu);
    return first ? [{ path: group.path, loader: () => redirect(`${group.path}/${first.path}`) }] : [];
  });
}

/**
 * The route tree: root → workplace, the public sign-in pages, every page of the
 * contract's route table inside the lazily loaded layout (each behind the guard), the hidden
 * /redirect/:path helper, and the catch-all not-found. The sign-in page is the only page in
 * the entry chunk; everything behind sign-in loads when needed.
 */
export function createRoutes(): RouteObject[] {
  const pages: RouteObject[] = pageRoutes().map((page) => ({
    id: page.name,
    path: page.fullPath,
    loader: guardLoader(page, page),
    handle: { page } satisfies PageHandle,
    // The layout draws the page itself (KeepAlivePages keeps tabs alive), so the route renders
    // nothing in the outlet. Saying so stops React Router's "Matched leaf route … does not have an
    // element" warning on every navigation.
    element: null,
  }));
  return [
    {
      id: 'root',
      Component: RootRoute,
      HydrateFallback: PageLoading,
      ErrorBoundary: RouteError,
      children: [
        { index: true, loader: () => redirect(DEFAULT_ROUTE.fullPath) },
        { id: LOGIN, path: '/login', loader: publicLoader(LOGIN), Component: LoginPage },
        {
          id: 'forgot-password',
          path: '/forgot-password',
          loader: publicLoader('forgot-password'),
          lazy: withStrings(() => import('../login/ForgotPasswordPage.tsx')),
        },
        {
          id: 'reset-password',
          path: '/reset-password',
          loader: publicLoader('reset-password'),
          lazy: withStrings(() => import('../login/ResetPasswordPage.tsx')),
        },
        {
          id: 'register',
          path: '/register',
          loader: publicLoader('register'),
          lazy: withStrings(() => import('../login/RegisterPage.tsx')),
        },
        ...groupRedirects(),
        {
          id: 'layout',
          lazy: withStrings(() => import('../layout/Layout.tsx')),
          children: [
            ...pages,
            {
              id: REDIRECT,
              path: '/redirect/:path',
              loader: guardLoader({ name: REDIRECT, requiresAuth: true, roles: [['*']] }),
              lazy: withStrings(() => import('./RedirectPage.tsx')),
            },
          ],
        },
        {
          id: NOT_FOUND,
          path: '*',
          loader: publicLoader(NOT_FOUND),
          lazy: withStrings(() => import('../not-found/NotFoundPage.tsx')),
        },
      ],
    },
  ];
}
