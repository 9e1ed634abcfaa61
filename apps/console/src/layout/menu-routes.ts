import { menuForRole, sortRoutes, type RouteDef } from '@mowerline/contract';
import { useSession } from '../session/session.store.ts';
import { useSettings } from '../settings/settings.store.ts';

/** Entries whose path is a web address open that site in a new tab (the spec's mock menu has one). */
export const isExternal = (path: string) => /^https?:\/\//.test(path);

/** Menu entries without the hidden pages (a group left empty disappears). */
function visible(routes: readonly RouteDef[]): RouteDef[] {
  return routes.flatMap((route) => {
    if (route.meta.hideInMenu) return [];
    if (!route.children) return [route];
    const children = visible(route.children);
    return children.length ? [{ ...route, children }] : [];
  });
}

/** The menu to draw: the server's when menuFromServer is on, else the route table for the current role. */
export function useMenuRoutes(): RouteDef[] {
  const role = useSession((s) => s.user?.role);
  const fromServer = useSettings((s) => s.menuFromServer);
  const serverMenu = useSettings((s) => s.serverMenu);
  return visible(fromServer ? sortRoutes(serverMenu) : menuForRole(role));
}

/** Absolute path of a menu entry under its group. */
export function entryPath(group: RouteDef | null, entry: RouteDef): string {
  if (isExternal(entry.path) || entry.path.startsWith('/') || !group) return entry.path;
  return `${group.path}/${entry.path}`;
}
