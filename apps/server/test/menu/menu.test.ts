import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { menuForRole, type RouteDef } from '@mowerline/contract';
import type { TestServer } from '../harness.ts';
import { EN, staffSession, startStaffServer } from '../staff/fixtures.ts';

const names = (routes: RouteDef[]): string[] => routes.flatMap((r) => [r.name, ...names(r.children ?? [])]);

describe('POST /api/user/menu', () => {
  let server: TestServer;
  let admin: string;
  let user: string;
  beforeAll(async () => {
    server = await startStaffServer();
    admin = await server.login();
    user = (await staffSession(server, admin, 'menu-user')).token;
  });
  afterAll(() => server.close());

  it('gives an admin the whole tree in menu order, in the menu item shape', async () => {
    const res = await server.api<RouteDef[]>('POST', '/api/user/menu', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(JSON.parse(JSON.stringify(menuForRole('admin'))));
    expect(res.body.data[0]).toEqual({
      path: '/dashboard',
      name: 'dashboard',
      meta: { locale: 'menu.dashboard', requiresAuth: true, icon: 'icon-dashboard', order: 0, roles: ['*'] },
      children: [{ path: 'workplace', name: 'workplace', meta: { locale: 'menu.dashboard.workplace', requiresAuth: true, roles: ['*'] } }],
    });
    expect(names(res.body.data)).toEqual(expect.arrayContaining(['system', 'system-user', 'system-log', 'email-log', 'event-delivery']));
    const orders = res.body.data.map((r) => r.meta.order ?? Infinity);
    expect([...orders].sort((a, b) => a - b)).toEqual(orders);
  });

  it('leaves out what role user may not open: no system group, no system-user', async () => {
    const res = await server.api<RouteDef[]>('POST', '/api/user/menu', { token: user });
    expect(res.body.data).toEqual(JSON.parse(JSON.stringify(menuForRole('user'))));
    const visible = names(res.body.data);
    expect(visible).toContain('workplace');
    expect(visible).not.toContain('system-user');
    expect(visible).not.toContain('system');
    expect(visible).not.toContain('system-log');
    expect(visible).not.toContain('event-delivery');
  });

  it('needs a session', async () => {
    const res = await server.api('POST', '/api/user/menu', { lang: EN });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 50008, msg: 'Not signed in or the session has expired' });
  });

  it('is described, recursively, in the OpenAPI document', async () => {
    type Doc = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>>; components: { schemas: Record<string, unknown> } };
    const doc = (await (await fetch(`${server.url}/api/docs/json`)).json()) as Doc;
    expect(JSON.stringify(doc.paths['/api/user/menu']?.post?.responses['200'])).toContain('"items":{"$ref":"#/components/schemas/RouteDef"}');
    const routeDef = JSON.stringify(doc.components.schemas.RouteDef);
    expect(routeDef).toContain('requiresAuth');
    expect(routeDef).toContain('"children":{"type":"array","items":{"allOf":[{"$ref":"#/components/schemas/RouteDef"}]}}');
    for (const path of ['/api/admin/user', '/api/admin/user/role', '/api/admin/system/log', '/api/admin/system/email-log', '/api/admin/message/list', '/api/admin/message/read', '/api/admin/message/read-all', '/api/admin/message/unread-count']) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });
});
