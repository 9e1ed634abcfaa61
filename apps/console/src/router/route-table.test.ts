import { describe, expect, it } from 'vitest';
import { eventDeliveryApi, menuForRole, permissions, type RouteDef } from '@mowerline/contract';
import { pageRoutes } from './route-table.ts';

describe('route table as the router sees it', () => {
  it('lists pages in menu order with absolute paths and the rules of group and page', () => {
    const pages = pageRoutes();
    expect(pages[0]).toMatchObject({ name: 'workplace', fullPath: '/dashboard/workplace', locales: ['menu.dashboard', 'menu.dashboard.workplace'] });
    const staff = pages.find((p) => p.name === 'system-user')!;
    expect(staff).toMatchObject({ fullPath: '/system/system-user', requiresAuth: true, roles: [['*'], ['admin']] });
    expect(new Set(pages.map((p) => p.name)).size).toBe(pages.length);
  });

  it('puts event delivery under /system for the admins who may read its endpoint (systemLog)', () => {
    const page = pageRoutes().find((p) => p.name === 'event-delivery')!;
    expect(page).toMatchObject({ fullPath: '/system/event-delivery', locales: ['menu.system', 'menu.system.eventDelivery'], roles: [['*'], permissions.systemLog] });
    expect(eventDeliveryApi.status.access).toMatchObject({ resource: 'systemLog' });
    const names = (role: string) => menuForRole(role).flatMap((r) => [r.name, ...(r.children ?? []).map((c) => c.name)]);
    expect(names('admin')).toContain('event-delivery');
    expect(names('user')).not.toContain('event-delivery');
  });

  it('orders groups by meta.order, ties kept in table order (stable sort)', () => {
    const order = (routes: RouteDef[]) => routes.map((r) => r.meta.order ?? Infinity);
    const menu = menuForRole('admin');
    expect(order(menu)).toEqual([...order(menu)].sort((a, b) => a - b));
  });
});
