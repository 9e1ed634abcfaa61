import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaptchaResult } from '@mowerline/contract';
import { captchas, loginAttempts } from '../../src/auth/auth.sql.ts';
import type { TestServer } from '../harness.ts';
import { addStaff, attemptRows, auditRows, EN, login, PASSWORD, solvedCaptcha, startAuthServer } from './fixtures.ts';

const WRONG = 'Wrong#Pass1';

describe('captcha and lock-out', () => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startAuthServer();
    admin = await server.login();
    for (const name of ['kim', 'lou', 'max', 'ned', 'ola', 'pia', 'quin']) await addStaff(server, admin, name);
  });
  afterAll(() => server.close());

  const fail = (username: string, ip: string, extra: Partial<Parameters<typeof login>[1]> = {}) =>
    login(server, { username, password: WRONG, ip, ...extra });

  it('makes an SVG image captcha, stored with a 5-minute expiry', async () => {
    const res = await server.api<CaptchaResult>('POST', '/api/admin/user/verification-code', { body: { username: 'kim' } });
    expect(res.body.code).toBe(0);
    expect(res.body.data.expiresIn).toBe(300);
    expect(res.body.data.image).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from(res.body.data.image.split(',')[1]!, 'base64').toString();
    expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    const [row] = await server.ctx.db.select().from(captchas).where(eq(captchas.id, res.body.data.captchaId));
    expect(row!.answer).toMatch(/^[a-z2-9]{4}$/);
    expect(row!.expiresAt.getTime() - Date.now()).toBeGreaterThan(290_000);
    expect(row!.usedAt).toBeNull();
  });

  it('takes the call without a body too', async () => {
    const res = await fetch(`${server.url}/api/admin/user/verification-code`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { code: number }).code).toBe(0);
  });

  it('after 3 failures for a username a captcha is required; without it the password is not even checked', async () => {
    for (let i = 0; i < 2; i++) expect((await fail('kim', '10.2.0.1')).body.data).toEqual({ captchaRequired: false });
    // The third failure tells the console to show the captcha from now on.
    expect((await fail('kim', '10.2.0.2')).body).toMatchObject({ code: 41001, data: { captchaRequired: true } });

    // Even the right password, from another address, is not accepted without a captcha.
    const zh = await login(server, { username: 'kim', password: PASSWORD, ip: '10.2.0.3' });
    expect(zh.body).toEqual({ code: 41002, msg: '请输入验证码', data: { captchaRequired: true }, status: 'fail' });
    const en = await login(server, { username: 'KIM', password: PASSWORD, ip: '10.2.0.3', lang: EN });
    expect(en.body).toMatchObject({ code: 41002, msg: 'Enter the verification code' });

    const wrongCode = await solvedCaptcha(server, '10.2.0.3');
    const bad = await login(server, { username: 'kim', password: PASSWORD, ip: '10.2.0.3', captchaId: wrongCode.captchaId, captchaCode: 'zzzz', lang: EN });
    expect(bad.body).toEqual({ code: 41003, msg: 'The verification code is wrong or has expired', data: { captchaRequired: true }, status: 'fail' });
    // One guess per image: the right answer no longer opens it.
    const reused = await login(server, { username: 'kim', password: PASSWORD, ip: '10.2.0.3', ...wrongCode });
    expect(reused.body).toMatchObject({ code: 41003, msg: '验证码错误或已过期' });

    const solved = await solvedCaptcha(server, '10.2.0.3');
    const ok = await login(server, { username: 'kim', password: PASSWORD, ip: '10.2.0.3', ...solved });
    expect(ok.body.code).toBe(0);
    const [used] = await server.ctx.db.select().from(captchas).where(eq(captchas.id, solved.captchaId));
    expect(used!.usedAt).toBeInstanceOf(Date);
    // The success resets the username's count: the next sign-in needs no captcha.
    expect((await login(server, { username: 'kim', password: PASSWORD, ip: '10.2.0.4' })).body.code).toBe(0);
    expect((await attemptRows(server, 'kim')).map((a) => a.reason)).toEqual([
      'wrong_password',
      'wrong_password',
      'wrong_password',
      'captcha_required',
      'captcha_required',
      'captcha_invalid',
      'captcha_invalid',
      'ok',
      'ok',
    ]);
    const audited = (await auditRows(server, 'auth.login')).filter((r) => r.actorName.toLowerCase() === 'kim').map((r) => r.detail.reason ?? r.result);
    expect(audited).toEqual(['wrong_password', 'wrong_password', 'wrong_password', 'captcha_required', 'captcha_required', 'captcha_invalid', 'captcha_invalid', 'success', 'success']);
  });

  it('refuses an expired captcha', async () => {
    for (let i = 0; i < 3; i++) await fail('lou', '10.2.1.1');
    const solved = await solvedCaptcha(server, '10.2.1.1');
    await server.ctx.db.update(captchas).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(captchas.id, solved.captchaId));
    const res = await login(server, { username: 'lou', password: PASSWORD, ip: '10.2.1.1', ...solved });
    expect(res.body.code).toBe(41003);
  });

  it('after 3 failures from one IP a captcha is required there for any username, not elsewhere', async () => {
    for (const username of ['ghost-1', 'ghost-2', 'ghost-3']) await fail(username, '10.2.2.1');
    expect((await login(server, { username: 'max', password: PASSWORD, ip: '10.2.2.1' })).body.code).toBe(41002);
    expect((await login(server, { username: 'max', password: PASSWORD, ip: '10.2.2.2' })).body.code).toBe(0);
  });

  it('a trust token from an earlier sign-in lets that browser skip the captcha for that username only', async () => {
    const first = await login(server, { username: 'ned', password: PASSWORD, ip: '10.2.3.1' });
    const trust = first.body.data.security_token;
    for (let i = 0; i < 3; i++) await fail('ned', '10.2.3.9');
    expect((await login(server, { username: 'ned', password: PASSWORD, ip: '10.2.3.1' })).body.code).toBe(41002);

    const wrong = await login(server, { username: 'ned', password: WRONG, ip: '10.2.3.1', securityToken: trust });
    expect(wrong.body).toMatchObject({ code: 41001, data: { captchaRequired: false } });
    const trusted = await login(server, { username: 'ned', password: PASSWORD, ip: '10.2.3.1', securityToken: trust });
    expect(trusted.body.code).toBe(0);

    for (let i = 0; i < 3; i++) await fail('ola', '10.2.3.8');
    const otherUser = await login(server, { username: 'ola', password: PASSWORD, ip: '10.2.3.1', securityToken: trust });
    expect(otherUser.body.code, 'trusted for ned, not for ola').toBe(41002);
    const forged = await login(server, { username: 'ola', password: PASSWORD, ip: '10.2.3.1', securityToken: `${trust}x` });
    expect(forged.body.code).toBe(41002);
  });

  it('locks the username after 8 wrong passwords: even the right one is refused, with the minutes left', async () => {
    const first = await login(server, { username: 'pia', password: PASSWORD, ip: '10.2.4.1' });
    const trust = first.body.data.security_token;
    // An attacker solving every captcha, from changing addresses.
    for (let i = 1; i <= 7; i++) {
      const res = await fail('pia', `10.2.4.${10 + i}`, i > 3 ? await solvedCaptcha(server, '10.2.4.2') : {});
      expect(res.body.code, `attempt ${i}`).toBe(41001);
    }
    const eighth = await fail('pia', '10.2.4.30', await solvedCaptcha(server, '10.2.4.2'));
    expect(eighth.body).toMatchObject({ code: 41004, msg: '登录失败次数过多，账号已临时锁定，请 15 分钟后再试' });

    // The right password, a solved captcha, even the trusted browser: all refused while locked.
    const right = await login(server, { username: 'pia', password: PASSWORD, ip: '10.2.4.1', securityToken: trust, lang: EN });
    expect(right.body).toEqual({
      code: 41004,
      msg: 'Too many failed sign-ins: the account is locked, try again in 15 minutes',
      data: { captchaRequired: false },
      status: 'fail',
    });
    const withCaptcha = await login(server, { username: 'pia', password: PASSWORD, ip: '10.2.4.40', ...(await solvedCaptcha(server, '10.2.4.40')) });
    expect(withCaptcha.body.code).toBe(41004);
    const failures = (await auditRows(server, 'auth.login')).filter((r) => r.actorName === 'pia' && r.result === 'failure');
    expect(failures.at(-1)!.detail).toEqual({ reason: 'locked', lockedMinutes: 15 });
    // Refusals while locked are not password checks: they do not stretch the lock.
    expect((await attemptRows(server, 'pia')).filter((a) => a.reason === 'wrong_password')).toHaveLength(8);

    // Once the window has passed (moved back in time here), the right password works again.
    await server.ctx.db
      .update(loginAttempts)
      .set({ at: sql`${loginAttempts.at} - interval '16 minutes'` })
      .where(and(eq(loginAttempts.username, 'pia')));
    const after = await login(server, { username: 'pia', password: PASSWORD, ip: '10.2.4.1', securityToken: trust });
    expect(after.body.code).toBe(0);
  });

  it('locks unknown usernames exactly like real ones', async () => {
    let last;
    for (let i = 0; i < 8; i++) last = await fail('nobody-at-all', `10.2.5.${i}`, i >= 3 ? await solvedCaptcha(server, '10.2.5.99') : {});
    expect(last!.body.code).toBe(41004);
  });

  it('a success resets the username count: failures before it no longer count toward the lock', async () => {
    for (let i = 0; i < 7; i++) await fail('quin', `10.2.6.${i}`, i >= 3 ? await solvedCaptcha(server, '10.2.6.99') : {});
    expect((await login(server, { username: 'quin', password: PASSWORD, ip: '10.2.6.50', ...(await solvedCaptcha(server, '10.2.6.50')) })).body.code).toBe(0);
    const next = await fail('quin', '10.2.6.51');
    expect(next.body).toMatchObject({ code: 41001, data: { captchaRequired: false } });
  });
});
