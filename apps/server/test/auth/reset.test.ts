import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResets } from '../../src/auth/auth.sql.ts';
import { emailLogs } from '../../src/email/email.sql.ts';
import { staffUsers } from '../../src/staff/staff.sql.ts';
import type { TestServer } from '../harness.ts';
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from '../smtp.ts';
import { addStaff, auditRows, EN, from, login, PASSWORD, solvedCaptcha, startAuthServer } from './fixtures.ts';

const NEW = 'Fr3sh#Meadow42';

/** Polls until `check` holds: forgot-password works after its answer, so tests wait for its effects. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('forgot and reset password, over real SMTP', () => {
  let smtp: SmtpReceiver;
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startAuthServer({ config: { smtpUrl: smtp.url, publicUrl: 'https://console.mowerline.test' } });
    admin = await server.login();
    for (const name of ['tom', 'uma', 'vera', 'walt']) await addStaff(server, admin, name);
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  const forgot = (username: string, lang?: string) => server.api('POST', '/api/admin/user/forgot-password', { body: { username }, lang });
  const reset = (token: string, newPassword: string, lang?: string) => server.api('POST', '/api/admin/user/reset-password', { body: { token, newPassword }, lang });
  const mailTo = (to: string, n = 1) =>
    eventually(
      async () => smtp.mails.filter((m) => m.to.includes(to)),
      (mails) => mails.length >= n,
    ).then((mails) => mails[n - 1]!);
  const tokenOf = (mail: ReceivedMail) => {
    const match = /https:\/\/console\.mowerline\.test\/#\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text);
    expect(match, mail.text).not.toBeNull();
    return match![1]!;
  };

  it('mails a single-use link that sets a new password and signs the account out everywhere', async () => {
    const session = await server.login('tom', PASSWORD);
    const res = await forgot('TOM', EN);
    expect(res.body).toEqual({ code: 0, msg: 'Request success', data: null, status: 'ok' });

    const mail = await mailTo('tom@mowerline.test');
    expect(mail.subject).toBe('Reset your Mowerline password');
    expect(mail.text).toContain('within 30 minutes');
    const token = tokenOf(mail);
    const [stored] = await server.ctx.db.select().from(passwordResets);
    expect(stored!.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(token);
    // The mail log row is written once the SMTP server has accepted the mail, a moment after it arrived.
    const logged = await eventually(
      () => server.ctx.db.select().from(emailLogs).where(eq(emailLogs.to, 'tom@mowerline.test')),
      (rows) => rows.length > 0,
    );
    expect(logged).toEqual([expect.objectContaining({ template: 'password-reset', status: 'sent' })]);

    // A weak choice is refused without using the link up.
    expect((await reset(token, 'weakpass')).body.code).toBe(41007);
    const done = await reset(token, NEW);
    expect(done.body).toEqual({ code: 0, msg: '请求成功', data: null, status: 'ok' });

    expect((await server.api('GET', '/api/admin/user/info', { token: session })).status).toBe(401);
    await expect(server.login('tom', PASSWORD)).rejects.toThrow(/41001/);
    expect(await server.login('tom', NEW)).toBeTruthy();

    const again = await reset(token, 'An0ther#Secret');
    expect(again.body).toEqual({ code: 41009, msg: '重置链接无效或已过期', data: null, status: 'fail' });
    expect((await reset(token, 'An0ther#Secret', EN)).body.msg).toBe('The reset link is invalid or has expired');

    const forgotLog = await eventually(() => auditRows(server, 'auth.password.forgot'), (rows) => rows.length > 0);
    expect(forgotLog).toEqual([expect.objectContaining({ actorName: 'TOM', result: 'success', targetName: 'tom', detail: { matched: 1 } })]);
    const resetLog = await auditRows(server, 'auth.password.reset');
    expect(resetLog.map((r) => [r.actorName, r.result, r.detail])).toEqual([
      ['tom', 'success', { revokedSessions: 1 }],
      ['', 'failure', { reason: 'invalid_token' }],
      ['', 'failure', { reason: 'invalid_token' }],
    ]);
  });

  it('matches the email too, writes in Chinese by default, and a newer link retires the older one', async () => {
    await forgot('UMA@MOWERLINE.TEST');
    const first = await mailTo('uma@mowerline.test', 1);
    expect(first.subject).toBe('Mowerline 密码重置');
    await forgot('uma');
    const second = await mailTo('uma@mowerline.test', 2);
    expect((await reset(tokenOf(first), NEW)).body.code).toBe(41009);
    expect((await reset(tokenOf(second), NEW)).body.code).toBe(0);
  });

  it('refuses an expired link', async () => {
    await forgot('vera');
    const token = tokenOf(await mailTo('vera@mowerline.test'));
    const [vera] = await server.ctx.db.select().from(staffUsers).where(eq(staffUsers.username, 'vera'));
    await server.ctx.db.update(passwordResets).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(passwordResets.userId, vera!.id));
    expect((await reset(token, NEW, EN)).body).toMatchObject({ code: 41009, msg: 'The reset link is invalid or has expired' });
    expect(await server.login('vera', PASSWORD)).toBeTruthy();
  });

  it('answers success for unknown names and pending accounts, and sends nothing', async () => {
    const pending = await server.api('POST', '/api/admin/user/register', {
      body: { username: 'yann', name: 'Yann', email: 'yann@mowerline.test', password: 'P3nding#Request' },
    });
    expect(pending.body.code).toBe(0);
    const linksBefore = (await server.ctx.db.select().from(passwordResets)).length;
    for (const name of ['no-such-user', 'nobody@mowerline.test', 'yann']) {
      expect((await forgot(name)).body).toMatchObject({ code: 0, data: null });
    }
    const logs = await eventually(
      () => auditRows(server, 'auth.password.forgot'),
      (rows) => rows.filter((r) => r.result === 'failure').length >= 3,
    );
    // Each runs in the background after its answer, so they may finish in any order.
    const failures = logs.filter((r) => r.result === 'failure').map((r) => [r.actorName, r.detail] as const);
    expect(failures.sort((a, b) => (a[0] < b[0] ? -1 : 1))).toEqual([
      ['no-such-user', { matched: 0 }],
      ['nobody@mowerline.test', { matched: 0 }],
      ['yann', { matched: 0 }],
    ]);
    expect(await server.ctx.db.select().from(passwordResets)).toHaveLength(linksBefore);
    expect(smtp.mails.filter((m) => m.to.includes('yann@mowerline.test') || m.to.includes('nobody@mowerline.test'))).toEqual([]);
  });

  it('a successful reset lifts a lock-out: proving the mailbox is as good as signing in', async () => {
    for (let i = 0; i < 8; i++) {
      await login(server, { username: 'walt', password: 'Wrong#Pass1', ip: '10.4.0.1', ...(i >= 3 ? await solvedCaptcha(server, '10.4.0.1', 'walt') : {}) });
    }
    const locked = await login(server, { username: 'walt', password: PASSWORD, ip: '10.4.0.1', ...(await solvedCaptcha(server, '10.4.0.1', 'walt')) });
    expect(locked.body.code).toBe(41004);

    await server.api('POST', '/api/admin/user/forgot-password', { body: { username: 'walt' }, headers: from('10.4.1.1') });
    expect((await reset(tokenOf(await mailTo('walt@mowerline.test')), NEW)).body.code).toBe(0);
    // The address that was locked signs in again (its failures still ask it for a captcha).
    expect((await login(server, { username: 'walt', password: NEW, ip: '10.4.0.1', ...(await solvedCaptcha(server, '10.4.0.1', 'walt')) })).body.code).toBe(0);
    expect((await login(server, { username: 'walt', password: NEW, ip: '10.4.1.2' })).body.code).toBe(0);
  });
});
