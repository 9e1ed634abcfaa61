import { redirect, type RouteObject } from 'react-router';
import { appRoutes, DEFAULT_ROUTE, sortRoutes } from '@mowerline/contract';
import { LoginPage } from '../login/LoginPage.tsx';
import { PageLoading } from '../app/PageLoading.tsx';
import { RootRoute } from '../app/RootRoute.tsx';
import { RouteError } from '../app/RouteError.tsx';
import { guardLoader, publicLoader } from './guard-loader.ts';
import { LOGIN, NOT_FOUND, REDIRECT } from './guard.ts';
import { pageRoutes, type PageRoute } from './route-table.ts';

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
 * The route tree (spec §2): root → workplace, the public sign-in pages, every page of the
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
          lazy: () => import('../login/ForgotPasswordPage.tsx').then((m) => ({ Component: m.default })),
        },
        {
          id: 'reset-password',
          path: '/reset-password',
          loader: publicLoader('reset-password'),
          lazy: () => import('../login/ResetPasswordPage.tsx').then((m) => ({ Component: m.default })),
        },
        {
          id: 'register',
          path: '/register',
          loader: publicLoader('register'),
          lazy: () => import('../login/RegisterPage.tsx').then((m) => ({ Component: m.default })),
        },
        ...groupRedirects(),
        {
          id: 'layout',
          lazy: () => import('../layout/Layout.tsx').then((m) => ({ Component: m.default })),
          children: [
            ...pages,
            {
              id: REDIRECT,
              path: '/redirect/:path',
              loader: guardLoader({ name: REDIRECT, requiresAuth: true, roles: [['*']] }),
              lazy: () => import('./RedirectPage.tsx').then((m) => ({ Component: m.default })),
            },
          ],
        },
        {
          id: NOT_FOUND,
          path: '*',
          loader: publicLoader(NOT_FOUND),
          lazy: () => import('../not-found/NotFoundPage.tsx').then((m) => ({ Component: m.default })),
        },
      ],
    },
  ];
}
