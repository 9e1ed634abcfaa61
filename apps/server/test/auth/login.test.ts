import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserInfo } from '@mowerline/contract';
import { staffUsers } from '../../src/staff/staff.sql.ts';
import { ADMIN, type TestServer } from '../harness.ts';
import { addStaff, attemptRows, auditRows, EN, from, login, PASSWORD, startAuthServer } from './fixtures.ts';

describe('sign-in, user info, sign-out', () => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startAuthServer();
    admin = await server.login();
    await addStaff(server, admin, 'gina');
    await addStaff(server, admin, 'dora');
  });
  afterAll(() => server.close());

  it('signs in: access token, expiry, trust token; records the attempt, the audit entry and last_login_at', async () => {
    const res = await login(server, { username: 'gina', password: PASSWORD, ip: '10.1.0.1' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 0, status: 'ok', msg: '请求成功' });
    const { access_token, expires_at, security_token } = res.body.data;
    expect(access_token.split('.')).toHaveLength(3);
    expect(security_token.split('.')).toHaveLength(3);
    const ttl = Date.parse(expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(server.config.sessionTtlMs - 60_000);
    expect(ttl).toBeLessThanOrEqual(server.config.sessionTtlMs);

    const info = await server.api<UserInfo>('GET', '/api/admin/user/info', { token: access_token });
    expect(info.body.data).toMatchObject({ username: 'gina', role: 'user' });

    const [attempt] = await attemptRows(server, 'gina');
    expect(attempt).toMatchObject({ ip: '10.1.0.1', success: true, reason: 'ok' });
    const audit = (await auditRows(server, 'auth.login')).filter((r) => r.actorName === 'gina');
    expect(audit).toEqual([expect.objectContaining({ result: 'success', ip: '10.1.0.1', targetType: 'staff', targetName: 'gina' })]);
    const [row] = await server.ctx.db.select().from(staffUsers).where(eq(staffUsers.username, 'gina'));
    expect(row!.lastLoginAt).toBeInstanceOf(Date);
  });

  it('is case-insensitive about the username, and "remember" gives the long session', async () => {
    const res = await login(server, { username: 'GINA', password: PASSWORD, ip: '10.1.0.2', remember: true });
    expect(res.body.code).toBe(0);
    expect(Date.parse(res.body.data.expires_at) - Date.now()).toBeGreaterThan(server.config.rememberTtlMs - 60_000);
  });

  it('refuses a wrong password and an unknown username alike, in both languages, and audits both', async () => {
    for (const username of ['gina', 'nobody-here']) {
      const zh = await login(server, { username, password: 'Wrong#Pass1', ip: '10.1.0.3' });
      expect(zh.status).toBe(400);
      expect(zh.body).toEqual({ code: 41001, msg: '用户名或密码错误', data: { captchaRequired: false }, status: 'fail' });
    }
    const en = await login(server, { username: 'dora', password: 'Wrong#Pass1', ip: '10.1.0.4', lang: EN });
    expect(en.body).toMatchObject({ code: 41001, msg: 'Wrong username or password' });

    const failures = (await auditRows(server, 'auth.login')).filter((r) => r.result === 'failure');
    expect(failures.map((r) => [r.actorName, r.detail])).toEqual([
      ['gina', { reason: 'wrong_password' }],
      ['nobody-here', { reason: 'wrong_password' }],
      ['dora', { reason: 'wrong_password' }],
    ]);
    expect(failures[1]!.actorId).toBeNull();
    expect((await attemptRows(server, 'nobody-here')).map((a) => a.reason)).toEqual(['wrong_password']);
  });

  it('refuses a disabled account only once the password is right', async () => {
    const hana = await addStaff(server, admin, 'hana');
    const put = await server.api('PUT', '/api/admin/user', { token: admin, body: { id: hana.id, status: 'disabled' } });
    expect(put.body.code).toBe(0);
    const wrong = await login(server, { username: 'hana', password: 'Wrong#Pass1', ip: '10.1.0.5' });
    expect(wrong.body.code).toBe(41001);
    const zh = await login(server, { username: 'hana', password: PASSWORD, ip: '10.1.0.5' });
    expect(zh.body).toMatchObject({ code: 41006, msg: '账号已停用，请联系管理员', status: 'fail' });
    const en = await login(server, { username: 'hana', password: PASSWORD, ip: '10.1.0.6', lang: EN });
    expect(en.body).toMatchObject({ code: 41006, msg: 'The account is disabled, contact an administrator' });
    expect((await attemptRows(server, 'hana')).map((a) => a.reason)).toEqual(['wrong_password', 'disabled', 'disabled']);
  });

  it('answers user info with the account fields the user centre shows', async () => {
    const token = await server.login();
    const res = await server.api<UserInfo>('GET', '/api/admin/user/info', { token });
    expect(res.body.data).toEqual({
      id: 1,
      username: ADMIN.username,
      name: ADMIN.username,
      role: 'admin',
      avatar: '',
      email: '',
      job: '',
      jobName: '',
      organization: '',
      organizationName: '',
      location: '',
      locationName: '',
      introduction: '',
      personalWebsite: '',
      phone: '',
      registrationDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      accountId: 'ML-000001',
      certification: 1,
      // The harness turns REQUIRE_2FA_ROLES off (test/two-factor covers the policy).
      mustEnrolSecondFactor: false,
    });
  });

  it('edits the own profile, returns the new info and audits the changed field names', async () => {
    const token = await server.login('gina', PASSWORD);
    const body = { name: 'Gina Green', job: 'Field engineer', organization: 'Service EU', location: 'Berlin', personalWebsite: 'https://gina.example' };
    const res = await server.api<UserInfo>('PUT', '/api/admin/user/profile', { token, body });
    expect(res.body.data).toMatchObject({ ...body, jobName: 'Field engineer', organizationName: 'Service EU', locationName: 'Berlin', certification: 0 });
    const again = await server.api<UserInfo>('GET', '/api/admin/user/info', { token });
    expect(again.body.data.name).toBe('Gina Green');
    const [entry] = await auditRows(server, 'auth.profile.update');
    expect(entry).toMatchObject({ actorName: 'gina', result: 'success', detail: { fields: Object.keys(body) } });

    const bad = await server.api('PUT', '/api/admin/user/profile', { token, body: { personalWebsite: 'not a url' }, lang: EN });
    expect(bad.body).toMatchObject({ code: 40000, msg: expect.stringContaining('personalWebsite') });
    const role = await server.api('PUT', '/api/admin/user/profile', { token, body: { role: 'admin' } });
    expect(role.body.code).toBe(40000);
    expect((await auditRows(server, 'auth.profile.update')).length).toBe(1);
  });

  it('answers 401 / 50008 without a token, with a malformed one, and with a forged one', async () => {
    const none = await server.api('GET', '/api/admin/user/info');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ code: 50008, msg: '未登录或登录已过期', data: null, status: 'fail' });
    const en = await server.api('GET', '/api/admin/user/info', { lang: EN });
    expect(en.body.msg).toBe('Not signed in or the session has expired');
    const garbage = await server.api('GET', '/api/admin/user/info', { token: 'not.a.jwt' });
    expect(garbage.status).toBe(401);
    const real = await server.login();
    const [head, , sig] = real.split('.');
    const payload = Buffer.from(JSON.stringify({ sid: '00000000-0000-4000-8000-000000000000', sub: '1' })).toString('base64url');
    const forged = await server.api('GET', '/api/admin/user/info', { token: `${head}.${payload}.${sig}` });
    expect(forged.status).toBe(401);
    expect(forged.body.code).toBe(50008);
  });

  it('logout revokes the session on the server: the token is dead afterwards', async () => {
    const token = await server.login();
    const other = await server.login();
    const out = await server.api('POST', '/api/admin/user/logout', { token });
    expect(out.body).toEqual({ code: 0, msg: '请求成功', data: null, status: 'ok' });
    for (const [method, path] of [['GET', '/api/admin/user/info'], ['POST', '/api/admin/user/logout'], ['GET', '/api/admin/user']] as const) {
      const res = await server.api(method, path, { token });
      expect(res.status, path).toBe(401);
      expect(res.body.code).toBe(50008);
    }
    expect((await server.api('GET', '/api/admin/user/info', { token: other })).body.code).toBe(0);
    const logouts = await auditRows(server, 'auth.logout');
    expect(logouts).toEqual([expect.objectContaining({ actorName: ADMIN.username, result: 'success', targetName: ADMIN.username })]);
  });

  it('a session of an account disabled later stops working at once', async () => {
    await addStaff(server, admin, 'ivan');
    const token = await server.login('ivan', PASSWORD);
    const [ivan] = await server.ctx.db.select().from(staffUsers).where(eq(staffUsers.username, 'ivan'));
    await server.api('PUT', '/api/admin/user', { token: admin, body: { id: ivan!.id, status: 'disabled' } });
    expect((await server.api('GET', '/api/admin/user/info', { token })).status).toBe(401);
  });

  describe('security token (trusted browser)', () => {
    it('a 401 carrying a valid X-Security-Token answers with a renewed one; without it data stays null', async () => {
      const signedIn = await login(server, { username: 'gina', password: PASSWORD, ip: '10.1.0.9' });
      const trust = signedIn.body.data.security_token;
      const res = await server.api<{ security_token: string }>('GET', '/api/admin/user/info', { headers: from('10.1.0.9', { 'x-security-token': trust }) });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(50008);
      expect(res.body.data.security_token.split('.')).toHaveLength(3);
      const payload = (t: string) => JSON.parse(Buffer.from(t.split('.')[1]!, 'base64url').toString()) as { purpose: string; username: string; exp: number };
      expect(payload(res.body.data.security_token)).toMatchObject({ purpose: 'trust', username: 'gina' });
      expect(payload(res.body.data.security_token).exp).toBeGreaterThanOrEqual(payload(trust).exp);

      const junk = await server.api('GET', '/api/admin/user/info', { headers: { 'x-security-token': 'junk' } });
      expect(junk.body.data).toBeNull();
      // An access token is not a trust token, and a trust token is not an access token.
      const access = signedIn.body.data.access_token;
      await server.api('POST', '/api/admin/user/logout', { token: access });
      const withAccess = await server.api('GET', '/api/admin/user/info', { token: access, headers: { 'x-security-token': access } });
      expect(withAccess.body.data).toBeNull();
      const trustAsAccess = await server.api('GET', '/api/admin/user/info', { token: trust });
      expect(trustAsAccess.status).toBe(401);
    });
  });
});
