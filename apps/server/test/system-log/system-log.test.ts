import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, StaffUser, SystemLog } from '@mowerline/contract';
import { ADMIN, type TestServer } from '../harness.ts';
import { EN, STAFF_PASSWORD, UA, startStaffServer } from '../staff/fixtures.ts';

describe('system log', () => {
  let server: TestServer;
  let admin: string;
  let created: StaffUser;
  beforeAll(async () => {
    server = await startStaffServer();
    admin = await server.login();
  });
  afterAll(() => server.close());

  const logs = async (query = '') => {
    const res = await server.api<Page<SystemLog>>('GET', `/api/admin/system/log${query}`, { token: admin });
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    return res.body.data;
  };
  const asAdmin = (method: string, body: unknown) => server.api<StaffUser>(method, '/api/admin/user', { token: admin, body, headers: { 'user-agent': UA } });

  it('records every admin change with actor, action, target, IP, user agent and result', async () => {
    created = (await asAdmin('POST', { username: 'mia', name: 'Mia', email: 'mia@mowerline.test', role: 'user', password: STAFF_PASSWORD })).body.data;
    await asAdmin('PUT', { id: created.id, name: 'Mia Moss', role: 'admin' });
    await asAdmin('PUT', { id: created.id, status: 'disabled' });
    await asAdmin('PUT', { id: created.id, password: 'An0ther#Secret' });
    await asAdmin('PUT', { id: created.id, sendResetLink: true });
    await asAdmin('POST', { username: 'MIA', name: 'Copy', email: 'copy@mowerline.test', role: 'user', password: STAFF_PASSWORD });

    const { list } = await logs('?targetType=staff&action=staff.');
    const common = { actorName: ADMIN.username, actorId: expect.any(Number), targetType: 'staff', ip: '127.0.0.1', userAgent: UA, at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) };
    expect(list.map((l) => [l.action, l.result])).toEqual([
      ['staff.create', 'failure'],
      ['staff.password.reset', 'success'],
      ['staff.password.reset', 'success'],
      ['staff.update', 'success'],
      ['staff.update', 'success'],
      ['staff.create', 'success'],
    ]);
    const [duplicate, link, set, disable, edit, create] = list;
    expect(create).toMatchObject({
      ...common,
      targetId: String(created.id),
      targetName: 'mia',
      detail: { username: 'mia', name: 'Mia', email: 'mia@mowerline.test', role: 'user', invited: false },
    });
    expect(edit).toMatchObject({ ...common, targetName: 'mia', detail: { changes: { name: { from: 'Mia', to: 'Mia Moss' }, role: { from: 'user', to: 'admin' } } } });
    expect(disable?.detail).toEqual({ changes: { status: { from: 'active', to: 'disabled' } } });
    expect(set).toMatchObject({ ...common, detail: { method: 'set' } });
    expect(link).toMatchObject({ ...common, detail: { method: 'link' } });
    expect(duplicate).toMatchObject({ ...common, targetId: '', targetName: 'MIA', result: 'failure', detail: { error: 'USERNAME_TAKEN' } });
    // Passwords never reach the log.
    expect(JSON.stringify(list)).not.toMatch(/An0ther#Secret|Gr4ss#Cutter9|password"/i);
  });

  it('records sign-ins too, newest first', async () => {
    const { list } = await logs();
    expect(list.map((l) => l.action)).toContain('auth.login');
    const times = list.map((l) => l.at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('filters by actor name (case-insensitive, part of the name)', async () => {
    expect((await logs('?actor=ADM')).list.every((l) => l.actorName === ADMIN.username)).toBe(true);
    expect((await logs('?actor=dmi')).total).toBeGreaterThan(0);
    expect((await logs('?actor=nobody')).total).toBe(0);
  });

  it('filters by exact action or by action family', async () => {
    expect((await logs('?action=staff.create')).list.map((l) => l.action)).toEqual(['staff.create', 'staff.create']);
    const family = await logs('?action=staff.');
    expect(new Set(family.list.map((l) => l.action))).toEqual(new Set(['staff.create', 'staff.update', 'staff.password.reset']));
    expect((await logs('?action=staff')).total).toBe(family.total);
    expect((await logs('?action=staff.password')).list.map((l) => l.action)).toEqual(['staff.password.reset', 'staff.password.reset']);
    expect((await logs('?action=auth.')).list.every((l) => l.action.startsWith('auth.'))).toBe(true);
    expect((await logs('?action=staff.cre')).total).toBe(0);
  });

  it('filters by target type and result', async () => {
    const failures = await logs('?result=failure&targetType=staff');
    expect(failures.list.map((l) => l.detail.error)).toEqual(['USERNAME_TAKEN']);
    expect((await logs('?targetType=device')).total).toBe(0);
  });

  it('filters by a time window', async () => {
    const all = (await logs('?action=staff.&pageSize=100')).list;
    const middle = all[Math.floor(all.length / 2)]!;
    const since = await logs(`?action=staff.&pageSize=100&from=${encodeURIComponent(middle.at)}`);
    expect(since.list.map((l) => l.id)).toContain(middle.id);
    expect(since.list.every((l) => l.at >= middle.at)).toBe(true);
    const until = await logs(`?action=staff.&pageSize=100&to=${encodeURIComponent(middle.at)}`);
    expect(until.list.every((l) => l.at <= middle.at)).toBe(true);
    expect(since.total + until.total).toBeGreaterThanOrEqual(all.length);
    const earliest = all[all.length - 1]!.at;
    const before = new Date(new Date(earliest).getTime() - 1).toISOString();
    expect((await logs(`?action=staff.&to=${encodeURIComponent(before)}`)).total).toBe(0);
  });

  it('paginates and validates its query', async () => {
    const page = await logs('?pageSize=2&page=2');
    expect(page.list).toHaveLength(2);
    for (const query of ['?result=maybe', '?from=yesterday', '?pageSize=500', '?level=high']) {
      const res = await server.api('GET', `/api/admin/system/log${query}`, { token: admin, lang: EN });
      expect(res.status, query).toBe(400);
      expect(res.body.code, query).toBe(40000);
    }
  });
});
