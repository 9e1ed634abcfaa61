import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captchas, loginAttempts, passwordResets, sessions } from '../../src/auth/auth.sql.ts';
import { staffUsers } from '../../src/staff/staff.sql.ts';
import { systemLogs } from '../../src/system-log/system-log.sql.ts';
import { ADMIN, startServer, type TestServer } from '../harness.ts';
import { EN } from './fixtures.ts';

/** Bad requests get a clear envelope and change nothing. */
describe('malformed requests to the account endpoints', () => {
  let server: TestServer;
  let token: string;
  let before: Record<string, number>;
  beforeAll(async () => {
    server = await startServer();
    token = await server.login();
    before = await counts();
  });
  afterAll(() => server.close());

  async function counts() {
    const tables = { sessions, loginAttempts, captchas, passwordResets, staffUsers, systemLogs };
    const out: Record<string, number> = {};
    for (const [name, table] of Object.entries(tables)) {
      const [row] = await server.ctx.db.select({ n: count() }).from(table);
      out[name] = row!.n;
    }
    return out;
  }

  const huge = 'x'.repeat(10 * 1024 * 1024);
  const cases: Array<{ name: string; method?: string; path: string; body?: unknown; raw?: string; type?: string; code: number; status: number; detail?: RegExp }> = [
    { name: 'login without password', path: '/api/admin/user/login', body: { username: ADMIN.username }, code: 40000, status: 400, detail: /password/ },
    { name: 'login without username', path: '/api/admin/user/login', body: { password: ADMIN.password }, code: 40000, status: 400, detail: /username/ },
    { name: 'login with a number as password', path: '/api/admin/user/login', body: { username: ADMIN.username, password: 12345678 }, code: 40000, status: 400, detail: /password/ },
    { name: 'login with an unknown field', path: '/api/admin/user/login', body: { ...ADMIN, isAdmin: true }, code: 40000, status: 400, detail: /isAdmin/ },
    { name: 'login with a 10 MB username', path: '/api/admin/user/login', body: { username: huge, password: ADMIN.password }, code: 40013, status: 413 },
    { name: 'login with a too long username', path: '/api/admin/user/login', body: { username: 'u'.repeat(65), password: ADMIN.password }, code: 40000, status: 400, detail: /username/ },
    { name: 'login with an oversized captcha payload', path: '/api/admin/user/login', body: { ...ADMIN, captcha: 'x'.repeat(5000) }, code: 40000, status: 400, detail: /captcha/ },
    { name: 'login with invalid JSON', path: '/api/admin/user/login', raw: '{"username": "admin", ', code: 40000, status: 400 },
    { name: 'login with an empty body', path: '/api/admin/user/login', raw: '', code: 40000, status: 400 },
    { name: 'login as a form', path: '/api/admin/user/login', raw: 'username=admin&password=x', type: 'application/x-www-form-urlencoded', code: 40015, status: 415 },
    { name: 'captcha with an unknown field', path: '/api/admin/user/verification-code', body: { size: 1 }, code: 40000, status: 400 },
    { name: 'register with a bad email', path: '/api/admin/user/register', body: { username: 'newbie', name: 'N', email: 'nope', password: 'Str0ng#Pass' }, code: 40000, status: 400, detail: /email/ },
    { name: 'register with a bad username', path: '/api/admin/user/register', body: { username: 'a b', name: 'N', email: 'a@b.example', password: 'Str0ng#Pass' }, code: 40000, status: 400, detail: /username/ },
    { name: 'register asking for a role', path: '/api/admin/user/register', body: { username: 'newbie', name: 'N', email: 'a@b.example', password: 'Str0ng#Pass', role: 'admin' }, code: 40000, status: 400, detail: /role/ },
    { name: 'forgot password without username', path: '/api/admin/user/forgot-password', body: {}, code: 40000, status: 400 },
    { name: 'reset with a short token', path: '/api/admin/user/reset-password', body: { token: 'short', newPassword: 'Str0ng#Pass' }, code: 40000, status: 400, detail: /token/ },
    { name: 'password change without the old one', method: 'PUT', path: '/api/admin/user/password', body: { newPassword: 'N3w#Password' }, code: 40000, status: 400, detail: /oldPassword/ },
    { name: 'password change with a 10 MB new one', method: 'PUT', path: '/api/admin/user/password', body: { oldPassword: ADMIN.password, newPassword: huge }, code: 40013, status: 413 },
    { name: 'profile with a wrong type', method: 'PUT', path: '/api/admin/user/profile', body: { name: 42 }, code: 40000, status: 400, detail: /name/ },
  ];

  for (const c of cases) {
    it(`${c.name} → ${c.status} / ${c.code}`, async () => {
      const headers: Record<string, string> = c.type ? { 'content-type': c.type } : {};
      const res = await server.api(c.method ?? 'POST', c.path, { token, body: c.body, rawBody: c.raw, headers, lang: EN });
      expect(res.status).toBe(c.status);
      expect(res.body).toMatchObject({ code: c.code, status: 'fail' });
      expect(res.body.msg.length).toBeGreaterThan(0);
      if (c.detail) expect(res.body.msg).toMatch(c.detail);
    });
  }

  it('validation messages come in Chinese by default', async () => {
    const res = await server.api('POST', '/api/admin/user/login', { body: { username: 'admin' } });
    expect(res.body.msg).toMatch(/^请求参数错误：password/);
  });

  it('none of them changed anything: no session, attempt, captcha, link, account or log row', async () => {
    expect(await counts()).toEqual(before);
  });
});
