import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailLog, Page, RoleInfo, StaffUser } from '@mowerline/contract';
import { ADMIN, type TestServer } from '../harness.ts';
import { addStaff, EN, STAFF_PASSWORD, startStaffServer } from './fixtures.ts';

describe('staff accounts: list, add, edit, roles', () => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startStaffServer();
    admin = await server.login();
  });
  afterAll(() => server.close());

  const list = (query: string) => server.api<Page<StaffUser>>('GET', `/api/admin/user${query}`, { token: admin });

  describe('list', () => {
    beforeAll(async () => {
      await addStaff(server, admin, { username: 'alice', email: 'alice@corp.example' });
      await addStaff(server, admin, { username: 'bob', role: 'admin', name: 'Bob Builder' });
      await addStaff(server, admin, { username: 'carol', name: 'Carol Smith', phone: '+49 30 1234' });
    });

    it('answers {list,total}, newest first, with the staff fields', async () => {
      const res = await list('');
      expect(res.status).toBe(200);
      expect(res.body.data.total).toBe(4);
      expect(res.body.data.list.map((u) => u.username)).toEqual(['carol', 'bob', 'alice', 'admin']);
      expect(res.body.data.list[0]).toEqual({
        id: expect.any(Number),
        username: 'carol',
        name: 'Carol Smith',
        email: 'carol@mowerline.test',
        phone: '+49 30 1234',
        role: 'user',
        status: 'active',
        requestReason: '',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        lastLoginAt: null,
      });
      // Signing in shows up as the last sign-in time.
      expect(res.body.data.list.find((u) => u.username === 'admin')?.lastLoginAt).toMatch(/^\d{4}-/);
    });

    it('matches the keyword against username, name and e-mail, ignoring case', async () => {
      expect((await list('?keyword=ALI')).body.data.list.map((u) => u.username)).toEqual(['alice']);
      expect((await list('?keyword=smith')).body.data.list.map((u) => u.username)).toEqual(['carol']);
      expect((await list('?keyword=CORP.EXAMPLE')).body.data.list.map((u) => u.username)).toEqual(['alice']);
      // LIKE wildcards are taken literally.
      expect((await list('?keyword=%25')).body.data).toEqual({ list: [], total: 0 });
      expect((await list('?keyword=_')).body.data.total).toBe(0);
    });

    it('filters by role and status', async () => {
      expect((await list('?role=admin')).body.data.list.map((u) => u.username)).toEqual(['bob', 'admin']);
      expect((await list('?role=user&keyword=car')).body.data.list.map((u) => u.username)).toEqual(['carol']);
      expect((await list('?role=admin&keyword=car')).body.data.total).toBe(0);
      expect((await list('?status=disabled')).body.data).toEqual({ list: [], total: 0 });
      expect((await list('?status=active')).body.data.total).toBe(4);
    });

    it('paginates with a total over all pages', async () => {
      const p1 = await list('?page=1&pageSize=3');
      const p2 = await list('?page=2&pageSize=3');
      expect(p1.body.data.list.map((u) => u.username)).toEqual(['carol', 'bob', 'alice']);
      expect(p2.body.data).toMatchObject({ total: 4, list: [{ username: 'admin' }] });
      expect((await list('?page=9&pageSize=3')).body.data).toEqual({ list: [], total: 4 });
    });

    it('refuses bad list queries with a validation envelope', async () => {
      for (const query of ['?pageSize=101', '?page=0', '?role=boss', '?status=gone', '?sort=name', `?keyword=${'k'.repeat(65)}`]) {
        const res = await server.api('GET', `/api/admin/user${query}`, { token: admin, lang: EN });
        expect(res.status, query).toBe(400);
        expect(res.body, query).toMatchObject({ code: 40000, status: 'fail', data: expect.anything() });
        expect(res.body.msg, query).toMatch(/^Invalid request: /);
      }
    });
  });

  describe('add', () => {
    it('creates an active account that can sign in with its password', async () => {
      const created = await addStaff(server, admin, { username: 'dave', name: 'Dave', email: 'dave@mowerline.test', phone: '555-1234', role: 'user' });
      expect(created).toMatchObject({ username: 'dave', name: 'Dave', email: 'dave@mowerline.test', phone: '555-1234', role: 'user', status: 'active' });
      const token = await server.login('dave', STAFF_PASSWORD);
      const info = await server.api<{ username: string; role: string }>('GET', '/api/admin/user/info', { token });
      expect(info.body.data).toMatchObject({ username: 'dave', role: 'user' });
    });

    it('refuses a username that exists in any letter case, in both languages', async () => {
      const body = { username: 'DAVE', name: 'Other', email: 'other@mowerline.test', role: 'user', password: STAFF_PASSWORD };
      const en = await server.api('POST', '/api/admin/user', { token: admin, body, lang: EN });
      expect(en.status).toBe(409);
      expect(en.body).toEqual({ code: 41010, msg: 'The username is already taken', data: null, status: 'fail' });
      const zh = await server.api('POST', '/api/admin/user', { token: admin, body });
      expect(zh.body).toMatchObject({ code: 41010, msg: '用户名已存在' });
      expect((await list('?keyword=dave')).body.data.total).toBe(1);
    });

    it('enforces the password policy: length, three character classes, not containing the username', async () => {
      for (const password of ['Sh0rt!', 'alllowercaseletters', 'Erin#Mower2']) {
        const res = await server.api('POST', '/api/admin/user', {
          token: admin,
          lang: EN,
          body: { username: 'erin', name: 'Erin', email: 'erin@mowerline.test', role: 'user', password },
        });
        expect(res.status, password).toBe(400);
        expect(res.body.code, password).toBe(41007);
        expect(res.body.msg).toMatch(/^The password does not meet the policy/);
      }
      expect((await list('?keyword=erin')).body.data.total).toBe(0);
    });

    it('without a password, mails the new colleague an invitation link to set one', async () => {
      const created = await addStaff(server, admin, { username: 'frank', email: 'frank@mowerline.test', password: null });
      expect(created.status).toBe('active');
      const mails = await server.api<Page<EmailLog>>('GET', '/api/admin/system/email-log?recipient=frank@', { token: admin });
      expect(mails.body.data.list).toMatchObject([{ to: 'frank@mowerline.test', template: 'staff-invite', status: 'not_sent' }]);
      // Nobody knows the random password it was given.
      const res = await server.api('POST', '/api/admin/user/login', { body: { username: 'frank', password: STAFF_PASSWORD } });
      expect(res.body.code).not.toBe(0);
    });
  });

  describe('edit', () => {
    it('changes name, e-mail, phone and role and answers the updated account', async () => {
      const gina = await addStaff(server, admin, { username: 'gina' });
      const res = await server.api<StaffUser>('PUT', '/api/admin/user', {
        token: admin,
        body: { id: gina.id, name: 'Gina Green', email: 'gina.green@mowerline.test', phone: '+1 555 0100', role: 'admin' },
      });
      expect(res.body).toMatchObject({ code: 0, data: { id: gina.id, name: 'Gina Green', email: 'gina.green@mowerline.test', phone: '+1 555 0100', role: 'admin', status: 'active' } });
      expect((await list('?keyword=gina')).body.data.list[0]).toMatchObject({ name: 'Gina Green', role: 'admin' });
    });

    it('answers not-found for an unknown id', async () => {
      const res = await server.api('PUT', '/api/admin/user', { token: admin, lang: EN, body: { id: 999_999, name: 'Nobody' } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 40004, msg: 'Not found', data: null, status: 'fail' });
    });

    it('disabling ends the sessions of that account and blocks sign-in; enabling lets it back in', async () => {
      const hank = await addStaff(server, admin, { username: 'hank' });
      const token = await server.login('hank', STAFF_PASSWORD);
      expect((await server.api('PUT', '/api/admin/user', { token: admin, body: { id: hank.id, status: 'disabled' } })).body.code).toBe(0);
      const after = await server.api('POST', '/api/user/menu', { token, lang: EN });
      expect(after.status).toBe(401);
      expect(after.body).toMatchObject({ code: 50008 });
      const login = await server.api('POST', '/api/admin/user/login', { lang: EN, body: { username: 'hank', password: STAFF_PASSWORD } });
      expect(login.body).toMatchObject({ code: 41006, msg: 'The account is disabled, contact an administrator' });
      expect((await server.api('PUT', '/api/admin/user', { token: admin, body: { id: hank.id, status: 'active' } })).body.code).toBe(0);
      await server.login('hank', STAFF_PASSWORD);
    });

    it('demoting an admin ends their sessions; they sign in again as a user', async () => {
      const ivy = await addStaff(server, admin, { username: 'ivy', role: 'admin' });
      const token = await server.login('ivy', STAFF_PASSWORD);
      expect((await server.api('PUT', '/api/admin/user', { token: admin, body: { id: ivy.id, role: 'user' } })).body.data).toMatchObject({ role: 'user' });
      expect((await server.api('GET', '/api/admin/user', { token })).status).toBe(401);
      const again = await server.login('ivy', STAFF_PASSWORD);
      expect((await server.api('GET', '/api/admin/user', { token: again })).status).toBe(403);
    });

    it('sets a new password (policy enforced), ending the old sessions', async () => {
      const jack = await addStaff(server, admin, { username: 'jack' });
      const token = await server.login('jack', STAFF_PASSWORD);
      const weak = await server.api('PUT', '/api/admin/user', { token: admin, lang: EN, body: { id: jack.id, password: 'weak' } });
      expect(weak.body.code).toBe(41007);
      expect((await server.api('POST', '/api/user/menu', { token })).status).toBe(200);

      const res = await server.api('PUT', '/api/admin/user', { token: admin, body: { id: jack.id, password: 'N3w&Better!pw' } });
      expect(res.body.code).toBe(0);
      expect((await server.api('POST', '/api/user/menu', { token })).status).toBe(401);
      const old = await server.api('POST', '/api/admin/user/login', { body: { username: 'jack', password: STAFF_PASSWORD } });
      expect(old.body.code).not.toBe(0);
      await server.login('jack', 'N3w&Better!pw');
    });

    it('mails a reset link instead when asked, ending the old sessions', async () => {
      const kim = await addStaff(server, admin, { username: 'kim', email: 'kim@mowerline.test' });
      const token = await server.login('kim', STAFF_PASSWORD);
      const res = await server.api('PUT', '/api/admin/user', { token: admin, body: { id: kim.id, sendResetLink: true } });
      expect(res.body.code).toBe(0);
      expect((await server.api('POST', '/api/user/menu', { token })).status).toBe(401);
      const mails = await server.api<Page<EmailLog>>('GET', '/api/admin/system/email-log?recipient=kim@mowerline.test', { token: admin });
      expect(mails.body.data.list).toMatchObject([{ template: 'password-reset', status: 'not_sent' }]);
    });

    it('refuses a password and a reset link together, and a reset link for an account without e-mail', async () => {
      const both = await server.api('PUT', '/api/admin/user', { token: admin, lang: EN, body: { id: 1, password: 'N3w&Better!pw', sendResetLink: true } });
      expect(both.body).toMatchObject({ code: 40000, msg: expect.stringContaining('sendResetLink') });
      // The first admin was created from the environment without an e-mail address.
      const noMail = await server.api('PUT', '/api/admin/user', { token: admin, lang: EN, body: { id: 1, sendResetLink: true } });
      expect(noMail.body).toMatchObject({ code: 41021, msg: 'The account has no e-mail address to send the mail to' });
      await server.login(ADMIN.username, ADMIN.password);
    });

    it('refuses to put an approved account back to pending', async () => {
      const leo = await addStaff(server, admin, { username: 'leo' });
      const res = await server.api('PUT', '/api/admin/user', { token: admin, body: { id: leo.id, status: 'pending' } });
      expect(res.body).toMatchObject({ code: 41020, msg: '已审批的账号不能改回待审批状态' });
      expect((await list('?keyword=leo')).body.data.list[0]?.status).toBe('active');
    });
  });

  describe('roles', () => {
    it('lists admin and user with names and descriptions in the caller language and member counts', async () => {
      const users = (await list('?role=user&pageSize=100')).body.data.total;
      const admins = (await list('?role=admin&pageSize=100')).body.data.total;
      const en = await server.api<RoleInfo[]>('GET', '/api/admin/user/role', { token: admin, lang: EN });
      expect(en.body.data).toEqual([
        { role: 'admin', name: 'Administrator', description: expect.stringMatching(/staff accounts/), members: admins },
        { role: 'user', name: 'Operator', description: expect.stringMatching(/devices/), members: users },
      ]);
      const zh = await server.api<RoleInfo[]>('GET', '/api/admin/user/role', { token: admin });
      expect(zh.body.data.map((r) => r.name)).toEqual(['管理员', '运营人员']);
    });

    it('filters roles by keyword in either language', async () => {
      const res = await server.api<RoleInfo[]>('GET', '/api/admin/user/role?keyword=operator', { token: admin });
      expect(res.body.data.map((r) => r.role)).toEqual(['user']);
      const zh = await server.api<RoleInfo[]>(`GET`, `/api/admin/user/role?keyword=${encodeURIComponent('管理员')}`, { token: admin });
      expect(zh.body.data.map((r) => r.role)).toEqual(['admin']);
    });
  });
});
