import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import type { Page, StaffUser, SystemLog } from '@mowerline/contract';
import { staffUsers } from '../../src/staff/staff.sql.ts';
import { systemLogs } from '../../src/system-log/system-log.sql.ts';
import { ADMIN, type TestServer } from '../harness.ts';
import { addStaff, EN, STAFF_PASSWORD, staffSession, startStaffServer } from './fixtures.ts';

describe('staff accounts: who may do what', () => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startStaffServer();
    admin = await server.login();
  });
  afterAll(() => server.close());

  const activeAdmins = async () =>
    (await server.ctx.db.select({ n: count() }).from(staffUsers).where(and(eq(staffUsers.role, 'admin'), eq(staffUsers.status, 'active'))))[0]!.n;
  const staffCount = async () => (await server.ctx.db.select({ n: count() }).from(staffUsers))[0]!.n;
  const logCount = async () => (await server.ctx.db.select({ n: count() }).from(systemLogs))[0]!.n;
  const adminId = async () => (await server.ctx.db.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.username, ADMIN.username)))[0]!.id;

  describe('the last admin', () => {
    it('cannot be demoted or disabled, not even by themselves', async () => {
      const id = await adminId();
      for (const change of [{ role: 'user' }, { status: 'disabled' }]) {
        const en = await server.api('PUT', '/api/admin/user', { token: admin, lang: EN, body: { id, ...change } });
        expect(en.status).toBe(400);
        expect(en.body).toEqual({ code: 41011, msg: 'The last active administrator cannot be disabled or demoted', data: null, status: 'fail' });
        const zh = await server.api('PUT', '/api/admin/user', { token: admin, body: { id, ...change } });
        expect(zh.body.msg).toBe('不能停用或降级最后一个管理员');
      }
      expect(await activeAdmins()).toBe(1);
      expect((await server.api('POST', '/api/user/menu', { token: admin })).status).toBe(200);
    });

    it('survives two admins demoting each other at the same moment: exactly one succeeds', async () => {
      const { user: second, token: secondToken } = await staffSession(server, admin, 'second-admin', 'admin');
      const first = await adminId();
      const [a, b] = await Promise.all([
        server.api('PUT', '/api/admin/user', { token: admin, body: { id: second.id, role: 'user' } }),
        server.api('PUT', '/api/admin/user', { token: secondToken, body: { id: first, role: 'user' } }),
      ]);
      const codes = [a.body.code, b.body.code];
      expect(codes.filter((c) => c === 0)).toHaveLength(1);
      // The loser is refused as the last admin, or was already demoted (403) and signed out (401).
      expect([41011, 40003, 50008]).toContain(codes.find((c) => c !== 0));
      expect(await activeAdmins()).toBe(1);
      // Put things back so the first admin is the sole admin holding a live token.
      if (b.body.code === 0) {
        const again = await server.login('second-admin', STAFF_PASSWORD);
        await server.api('PUT', '/api/admin/user', { token: again, body: { id: first, role: 'admin' } });
        admin = await server.login();
        await server.api('PUT', '/api/admin/user', { token: admin, body: { id: second.id, role: 'user' } });
      }
      expect(await activeAdmins()).toBe(1);
    });
  });

  describe('yourself', () => {
    it('you cannot disable or demote your own account while other admins exist', async () => {
      await addStaff(server, admin, { username: 'other-admin', role: 'admin' });
      const id = await adminId();
      for (const change of [{ role: 'user' }, { status: 'disabled' }]) {
        const en = await server.api('PUT', '/api/admin/user', { token: admin, lang: EN, body: { id, ...change } });
        expect(en.body).toEqual({ code: 41012, msg: 'You cannot disable or demote your own account', data: null, status: 'fail' });
        const zh = await server.api('PUT', '/api/admin/user', { token: admin, body: { id, ...change } });
        expect(zh.body.msg).toBe('不能停用或降级自己的账号');
      }
      // Your own name is fine.
      const rename = await server.api<StaffUser>('PUT', '/api/admin/user', { token: admin, body: { id, name: 'The Admin' } });
      expect(rename.body.data).toMatchObject({ name: 'The Admin', role: 'admin', status: 'active' });
    });

    it('records refused changes in the system log as failures', async () => {
      const logs = await server.api<Page<SystemLog>>('GET', '/api/admin/system/log?action=staff.update&result=failure', { token: admin });
      expect(logs.body.data.list.map((l) => l.detail.error)).toEqual(expect.arrayContaining(['SELF_CHANGE', 'LAST_ADMIN']));
      expect(logs.body.data.list[0]).toMatchObject({ actorName: ADMIN.username, targetType: 'staff', targetName: ADMIN.username, result: 'failure' });
    });
  });

  describe('role user', () => {
    let user: string;
    let userId: number;
    beforeAll(async () => {
      const session = await staffSession(server, admin, 'plain-user');
      user = session.token;
      userId = session.user.id;
    });

    const adminCalls = (id: number): Array<[string, string, unknown?]> => [
      ['GET', '/api/admin/user'],
      ['POST', '/api/admin/user', { username: 'sneaky', name: 'Sneaky', email: 'sneaky@mowerline.test', role: 'admin', password: STAFF_PASSWORD }],
      ['PUT', '/api/admin/user', { id, role: 'admin' }],
      ['GET', '/api/admin/user/role'],
      ['GET', '/api/admin/system/log'],
      ['GET', '/api/admin/system/email-log'],
    ];

    it('cannot list, add or edit accounts nor read the logs: 403 envelope in both languages', async () => {
      const before = await staffCount();
      for (const [method, path, body] of adminCalls(userId)) {
        const en = await server.api(method, path, { token: user, lang: EN, body });
        expect(en.status, `${method} ${path}`).toBe(403);
        expect(en.body).toEqual({ code: 40003, msg: 'You do not have permission to do this', data: null, status: 'fail' });
        const zh = await server.api(method, path, { token: user, body });
        expect(zh.body).toEqual({ code: 40003, msg: '没有权限执行此操作', data: null, status: 'fail' });
      }
      expect(await staffCount()).toBe(before);
      const [me] = await server.ctx.db.select().from(staffUsers).where(eq(staffUsers.id, userId));
      expect(me?.role).toBe('user');
    });

    it('without a token every admin call is 401 not-signed-in', async () => {
      for (const [method, path, body] of adminCalls(userId)) {
        const res = await server.api(method, path, { lang: EN, body });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(res.body).toMatchObject({ code: 50008, msg: 'Not signed in or the session has expired', status: 'fail' });
      }
    });
  });

  describe('malformed bodies change nothing', () => {
    const valid = { username: 'newbie', name: 'Newbie', email: 'newbie@mowerline.test', role: 'user', password: STAFF_PASSWORD };
    const { username: _omit, ...withoutUsername } = valid;
    const huge = 'x'.repeat(10 * 1024 * 1024);

    it('POST: missing fields, wrong types, unknown fields, over-long strings, bad JSON', async () => {
      const staffBefore = await staffCount();
      const logsBefore = await logCount();
      const cases: Array<[string, unknown]> = [
        ['missing username', withoutUsername],
        ['missing everything', {}],
        ['number as username', { ...valid, username: 12345 }],
        ['unknown role', { ...valid, role: 'root' }],
        ['bad e-mail', { ...valid, email: 'not-an-email' }],
        ['unknown field', { ...valid, isSuperuser: true }],
        ['array body', [valid]],
        ['name over 64', { ...valid, name: 'n'.repeat(65) }],
        ['password over 128', { ...valid, password: `Aa1!${'x'.repeat(200)}` }],
      ];
      for (const [label, body] of cases) {
        const res = await server.api('POST', '/api/admin/user', { token: admin, lang: EN, body });
        expect(res.status, label).toBe(400);
        expect(res.body, label).toMatchObject({ code: 40000, status: 'fail', msg: expect.stringMatching(/^Invalid request: .+/) });
      }
      const zh = await server.api('POST', '/api/admin/user', { token: admin, body: { ...valid, isSuperuser: true } });
      expect(zh.body.msg).toMatch(/^请求参数错误：/);
      const badJson = await server.api('POST', '/api/admin/user', { token: admin, rawBody: '{"username": "newbie",', lang: EN });
      expect(badJson.body).toMatchObject({ code: 40000, status: 'fail' });
      expect(await staffCount()).toBe(staffBefore);
      expect(await logCount()).toBe(logsBefore);
    });

    it('a 10 MB string is refused as too large, in both languages', async () => {
      const staffBefore = await staffCount();
      const en = await server.api('POST', '/api/admin/user', { token: admin, lang: EN, body: { ...valid, name: huge } });
      expect(en.status).toBe(413);
      expect(en.body).toEqual({ code: 40013, msg: 'Request body too large', data: null, status: 'fail' });
      const zh = await server.api('PUT', '/api/admin/user', { token: admin, body: { id: await adminId(), name: huge } });
      expect(zh.status).toBe(413);
      expect(zh.body).toMatchObject({ code: 40013, msg: '请求体过大' });
      expect(await staffCount()).toBe(staffBefore);
      const [me] = await server.ctx.db.select().from(staffUsers).where(eq(staffUsers.username, ADMIN.username));
      expect(me?.name).toBe('The Admin');
    });

    it('PUT: missing id, wrong types, unknown fields leave the account as it was', async () => {
      const target = await addStaff(server, admin, { username: 'steady' });
      const logsBefore = await logCount();
      const cases: Array<[string, unknown]> = [
        ['missing id', { name: 'Changed' }],
        ['id as string', { id: String(target.id), name: 'Changed' }],
        ['status unknown', { id: target.id, status: 'deleted' }],
        ['role wrong type', { id: target.id, role: ['admin'] }],
        ['unknown field', { id: target.id, name: 'Changed', passwordHash: 'x' }],
        ['sendResetLink as string', { id: target.id, sendResetLink: 'yes' }],
      ];
      for (const [label, body] of cases) {
        const res = await server.api('PUT', '/api/admin/user', { token: admin, lang: EN, body });
        expect(res.status, label).toBe(400);
        expect(res.body.code, label).toBe(40000);
      }
      const [row] = await server.ctx.db.select().from(staffUsers).where(eq(staffUsers.id, target.id));
      expect(row).toMatchObject({ name: target.name, role: 'user', status: 'active' });
      expect(await logCount()).toBe(logsBefore);
    });
  });
});
