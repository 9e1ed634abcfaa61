import { appRoutes, sortRoutes, type RoleRule, type RouteDef } from '@mowerline/contract';

/** A page of the route table with what the router, guard, tabs and breadcrumbs need to know. */
export interface PageRoute {
  name: string;
  fullPath: string;
  /** Locale keys: the group's label, then the page's. */
  locales: string[];
  requiresAuth: boolean;
  roles: Array<readonly RoleRule[]>;
  ignoreCache: boolean;
  hideInMenu: boolean;
  /** The menu entry a hidden page highlights (else its own). */
  activeMenu?: string;
}

/** Every page (leaf) of the contract's route table, in menu order. */
export function pageRoutes(routes: readonly RouteDef[] = appRoutes): PageRoute[] {
  return sortRoutes(routes).flatMap((group) => {
    if (!group.children) return [toPage(group, group.path, [])];
    return group.children.map((child) => toPage(child, `${group.path}/${child.path}`, [group]));
  });
}

function toPage(route: RouteDef, fullPath: string, parents: RouteDef[]): PageRoute {
  const chain = [...parents, route];
  return {
    name: route.name,
    fullPath,
    locales: chain.map((r) => r.meta.locale),
    requiresAuth: chain.some((r) => r.meta.requiresAuth),
    roles: chain.map((r) => r.meta.roles),
    ignoreCache: !!route.meta.ignoreCache,
    hideInMenu: !!route.meta.hideInMenu,
    ...(route.meta.activeMenu ? { activeMenu: route.meta.activeMenu } : {}),
  };
}

/** The page of a route name, if the table has it. */
export function findPage(name: string): PageRoute | undefined {
  return pageRoutes().find((page) => page.name === name);
}
