import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageKinds, type Message, type Page, type RegisterResult } from '@mowerline/contract';
import { staffUsers } from '../../src/staff/staff.sql.ts';
import type { TestServer } from '../harness.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../smtp.ts';
import { addStaff, attemptRows, auditRows, EN, login, solvedCaptcha, startAuthServer } from './fixtures.ts';

const REQUEST = { username: 'zoe', name: 'Zoe Field', email: 'zoe@mowerline.test', password: 'Gr33n#Lawns', reason: 'New service technician, Munich' };

describe('register account: pending until an admin approves it', () => {
  let smtp: SmtpReceiver;
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startAuthServer({ config: { smtpUrl: smtp.url, publicUrl: 'https://console.mowerline.test' } });
    admin = await server.login();
    await server.api('PUT', '/api/admin/user/profile', { token: admin, body: { email: 'admin@mowerline.test' } });
    await addStaff(server, admin, 'second-admin', { role: 'admin', email: 'boss@mowerline.test' });
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  const register = (body: Record<string, unknown>, lang?: string) => server.api<RegisterResult>('POST', '/api/admin/user/register', { body, lang });

  it('creates a pending user account, audits it, and tells every admin (todo + mail)', async () => {
    const res = await register(REQUEST, EN);
    expect(res.body).toEqual({ code: 0, msg: 'Request success', data: { id: expect.any(Number), username: 'zoe', status: 'pending' }, status: 'ok' });
    const [row] = await server.ctx.db.select().from(staffUsers).where(eq(staffUsers.username, 'zoe'));
    expect(row).toMatchObject({ role: 'user', status: 'pending', email: 'zoe@mowerline.test', requestReason: REQUEST.reason });
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);

    const [audit] = await auditRows(server, 'auth.register');
    expect(audit).toMatchObject({ actorName: 'zoe', result: 'success', targetType: 'staff', targetName: 'zoe' });
    expect(JSON.stringify(audit!.detail)).not.toContain(REQUEST.password);

    const inbox = await server.api<Page<Message>>('GET', '/api/admin/message/list?type=todo', { token: admin, lang: EN });
    expect(inbox.body.data.list).toEqual([
      expect.objectContaining({ messageType: messageKinds.accountRequest, subTitle: 'zoe', content: expect.stringContaining(REQUEST.reason) }),
    ]);
    const bossToken = await server.login('second-admin', 'Bl4de#Runner7');
    const bossInbox = await server.api<Page<Message>>('GET', '/api/admin/message/list?type=todo', { token: bossToken });
    expect(bossInbox.body.data.total).toBe(1);

    const mails = await smtp.waitFor((m) => m.to.includes('boss@mowerline.test'));
    expect(mails.subject).toBe('A new account request is waiting');
    expect(mails.text).toContain('https://console.mowerline.test/#/system/system-user?status=pending');
    await smtp.waitFor((m) => m.to.includes('admin@mowerline.test'));
  });

  it('a pending account cannot sign in, but only the right password learns that', async () => {
    const wrong = await login(server, { username: 'zoe', password: 'Wrong#Pass1', ip: '10.5.0.1' });
    expect(wrong.body.code).toBe(41001);
    const zh = await login(server, { username: 'zoe', password: REQUEST.password, ip: '10.5.0.1' });
    expect(zh.body).toEqual({ code: 41005, msg: '账号正在等待管理员审批', data: { captchaRequired: false }, status: 'fail' });
    const en = await login(server, { username: 'zoe', password: REQUEST.password, ip: '10.5.0.2', lang: EN });
    expect(en.body).toMatchObject({ code: 41005, msg: 'The account is waiting for an administrator to approve it', data: { captchaRequired: true } });
    expect((await attemptRows(server, 'zoe')).map((a) => a.reason)).toEqual(['wrong_password', 'pending', 'pending']);
  });

  it('refuses a taken username (any case) and a weak password, in both languages, creating nothing', async () => {
    // Other mailboxes: one mailbox is registered at most 3 times a day (form-limits.test.ts).
    const taken = await register({ ...REQUEST, username: 'ZOE', email: 'zoe2@mowerline.test' });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 41010, msg: '用户名已存在' });
    expect((await register({ ...REQUEST, username: 'Admin', email: 'zoe3@mowerline.test' }, EN)).body).toMatchObject({ code: 41010, msg: 'The username is already taken' });
    const weak = await register({ ...REQUEST, username: 'yves', email: 'yves@mowerline.test', password: 'password' }, EN);
    expect(weak.body).toMatchObject({ code: 41007, msg: expect.stringMatching(/^The password does not meet the policy/) });
    const containsName = await register({ ...REQUEST, username: 'yves', email: 'yves@mowerline.test', password: 'Yves#2026abc' });
    expect(containsName.body.code).toBe(41007);
    expect(await server.ctx.db.select().from(staffUsers).where(eq(staffUsers.username, 'yves'))).toEqual([]);
    const failures = (await auditRows(server, 'auth.register')).filter((r) => r.result === 'failure');
    expect(failures.map((r) => r.detail)).toEqual([{ error: 'USERNAME_TAKEN' }, { error: 'USERNAME_TAKEN' }, { error: 'WEAK_PASSWORD' }, { error: 'WEAK_PASSWORD' }]);
  });

  it('once an admin approves it, the account signs in', async () => {
    const [row] = await server.ctx.db.select().from(staffUsers).where(eq(staffUsers.username, 'zoe'));
    const approve = await server.api('PUT', '/api/admin/user', { token: admin, body: { id: row!.id, status: 'active' } });
    expect(approve.body.code).toBe(0);
    // Three refused sign-ins earlier: the console shows the captcha now, as the last refusal said.
    const res = await login(server, { username: 'zoe', password: REQUEST.password, ip: '10.5.0.3', ...(await solvedCaptcha(server, '10.5.0.3', 'zoe')) });
    expect(res.body.code).toBe(0);
  });
});
