import { can, permissions, type Resource, type RoleRule } from './roles.ts';

export interface RouteMeta {
  /** Locale key of the label, e.g. `menu.system.user`. */
  locale: string;
  requiresAuth: boolean;
  icon?: string;
  order?: number;
  roles: readonly RoleRule[];
  hideInMenu?: boolean;
  /** Keep the page out of the tab bar's cache list. */
  ignoreCache?: boolean;
  /** A hidden page highlights this menu entry instead. */
  activeMenu?: string;
}

export interface RouteDef {
  /** Absolute for groups (`/system`), relative for children (`system-user`). */
  path: string;
  name: string;
  meta: RouteMeta;
  children?: RouteDef[];
}

const page = (path: string, name: string, locale: string, resource: Resource, extra: Partial<RouteMeta> = {}): RouteDef => ({
  path,
  name,
  meta: { locale, requiresAuth: true, roles: permissions[resource], ...extra },
});

/**
 * The one route/menu table. The server's menu endpoint and the console's router,
 * menu, breadcrumbs and tab bar all read it. An area appears here with the issue that builds it.
 *
 * Order collisions (spec: task 1 with device 1, ticket 3 with product 3) are resolved by a stable
 * sort: equal orders keep the order of declaration below, which is the spec's table order.
 */
export const appRoutes: RouteDef[] = [
  {
    path: '/dashboard',
    name: 'dashboard',
    meta: { locale: 'menu.dashboard', requiresAuth: true, icon: 'icon-dashboard', order: 0, roles: ['*'] },
    children: [page('workplace', 'workplace', 'menu.dashboard.workplace', 'dashboard')],
  },
  {
    path: '/device',
    name: 'device',
    meta: { locale: 'menu.device', requiresAuth: true, icon: 'icon-desktop', order: 1, roles: ['*'] },
    children: [
      page('list', 'device-list', 'menu.device.list', 'devices'),
      page('shell', 'shell', 'menu.device.shell', 'shell'),
      page('upgrade-log', 'upgrade-log', 'menu.device.upgradeLog', 'firmware'),
      page('device-map', 'device-map', 'menu.device.map', 'devices'),
      page('device-group', 'device-group', 'menu.device.group', 'deviceGroups'),
      page('device-exception-event', 'device-exception-event', 'menu.device.exceptionEvent', 'deviceEvents'),
    ],
  },
  {
    path: '/task',
    name: 'task',
    meta: { locale: 'menu.task', requiresAuth: true, icon: 'icon-calendar', order: 1, roles: ['*'] },
    children: [
      page('task-overview', 'task-overview', 'menu.task.overview', 'tasks'),
      page('task-list', 'task-list', 'menu.task.list', 'tasks'),
      page('task-record', 'task-record', 'menu.task.record', 'tasks'),
      // The spec's menu label "Tasks fault": a child of /task, its path ours to choose.
      page('task-fault', 'task-fault', 'menu.task.fault', 'tasks'),
    ],
  },
  {
    path: '/operation',
    name: 'operation',
    meta: { locale: 'menu.operation', requiresAuth: true, icon: 'icon-user-group', order: 2, roles: ['*'] },
    children: [
      page('user', 'operation-user', 'menu.operation.user', 'endUsers'),
      page('user-distribution', 'user-distribution', 'menu.operation.userDistribution', 'endUsers'),
      page('user-log', 'user-log', 'menu.operation.userLog', 'endUsers'),
      // Ours, not the spec's: in-app content staff publish, after the spec's three pages.
      page('content', 'operation-content', 'menu.operation.content', 'content'),
    ],
  },
  {
    path: '/product',
    name: 'product',
    meta: { locale: 'menu.product', requiresAuth: true, icon: 'icon-apps', order: 3, roles: ['*'] },
    children: [
      page('sn', 'product-sn', 'menu.product.sn', 'productSn'),
      page('firmware', 'firmware', 'menu.product.firmware', 'firmware'),
      page('voice-version', 'voice-version', 'menu.product.voiceVersion', 'firmware'),
      page('app-change-log', 'app-change-log', 'menu.product.appChangeLog', 'appVersion'),
    ],
  },
  {
    path: '/ticket',
    name: 'ticket',
    meta: { locale: 'menu.ticket', requiresAuth: true, icon: 'icon-customer-service', order: 3, roles: ['*'] },
    children: [
      page('list', 'ticket-list', 'menu.ticket.list', 'ticket'),
      // The detail takes the ticket as a query parameter (`?id=42`), so a link can be shared and bookmarked.
      page('detail', 'ticket-detail', 'menu.ticket.detail', 'ticket', { hideInMenu: true, activeMenu: 'ticket-list', ignoreCache: true }),
    ],
  },
  {
    path: '/system',
    name: 'system',
    meta: { locale: 'menu.system', requiresAuth: true, icon: 'icon-settings', order: 4, roles: ['*'] },
    children: [
      page('system-user', 'system-user', 'menu.system.user', 'staff'),
      page('system-log', 'system-log', 'menu.system.log', 'systemLog'),
      page('email-log', 'email-log', 'menu.system.emailLog', 'emailLog'),
      // Ours, not the spec's: delivery of the event stream per subscriber, for the same admins as the system log.
      page('event-delivery', 'event-delivery', 'menu.system.eventDelivery', 'systemLog'),
      page('integrations', 'integrations', 'menu.system.integrations', 'integrations'),
    ],
  },
  {
    path: '/user',
    name: 'user',
    meta: { locale: 'menu.user', requiresAuth: true, icon: 'icon-user', order: 5, roles: ['*'] },
    children: [
      page('center', 'user-center', 'menu.user.center', 'profile'),
      page('messages', 'user-messages', 'menu.user.messages', 'messages'),
    ],
  },
];

export const DEFAULT_ROUTE = { name: 'workplace', fullPath: '/dashboard/workplace' } as const;

/** Stable sort by meta.order; routes without an order go last. */
export function sortRoutes(routes: readonly RouteDef[]): RouteDef[] {
  return routes
    .map((route, index) => ({ route, index }))
    .sort((a, b) => (a.route.meta.order ?? Infinity) - (b.route.meta.order ?? Infinity) || a.index - b.index)
    .map(({ route }) => (route.children ? { ...route, children: sortRoutes(route.children) } : route));
}

/** The menu tree a role may see (groups with no permitted child are dropped). */
export function menuForRole(role: string | undefined, routes: readonly RouteDef[] = appRoutes): RouteDef[] {
  const visible: RouteDef[] = [];
  for (const route of sortRoutes(routes)) {
    if (!can(role, route.meta.roles)) continue;
    if (!route.children) {
      visible.push(route);
      continue;
    }
    const children = menuForRole(role, route.children);
    if (children.length > 0) visible.push({ ...route, children });
  }
  return visible;
}

/** Leaf routes with their absolute paths, in menu order. */
export function flattenRoutes(routes: readonly RouteDef[] = appRoutes): Array<RouteDef & { fullPath: string }> {
  return sortRoutes(routes).flatMap((group) =>
    group.children
      ? group.children.map((child) => ({ ...child, fullPath: `${group.path}/${child.path}` }))
      : [{ ...group, fullPath: group.path }],
  );
}
