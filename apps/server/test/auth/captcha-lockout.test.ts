import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captchas, loginAttempts } from '../../src/auth/auth.sql.ts';
import { counterCeiling, issueChallenge } from '../../src/auth/captcha.service.ts';
import type { TestServer } from '../harness.ts';
import { addStaff, attemptRows, auditRows, EN, fetchChallenge, login, PASSWORD, solve, solvedCaptcha, startAuthServer } from './fixtures.ts';

const WRONG = 'Wrong#Pass1';

describe('captcha (proof of work) and lock-out', () => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startAuthServer();
    admin = await server.login();
    for (const name of ['kim', 'lou', 'max', 'ned', 'ola', 'pia', 'quin', 'rae', 'sol']) await addStaff(server, admin, name);
  });
  afterAll(() => server.close());

  const fail = (username: string, ip: string, extra: Partial<Parameters<typeof login>[1]> = {}) =>
    login(server, { username, password: WRONG, ip, ...extra });
  const encode = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString('base64');

  it('serves a signed PBKDF2 proof-of-work challenge that expires in 5 minutes; nothing is stored until it is used', async () => {
    const data = await fetchChallenge(server, '10.2.9.1', 'kim');
    expect(data).toMatchObject({ level: 1, expiresIn: 300 });
    const p = data.challenge.parameters;
    expect(p).toMatchObject({ algorithm: 'PBKDF2/SHA-256', cost: 1000, keyLength: 32 });
    expect(p.expiresAt! * 1000 - Date.now()).toBeGreaterThan(290_000);
    expect(p.data).toMatchObject({ level: 1, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(data.challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(await server.ctx.db.select().from(captchas)).toEqual([]);
  });

  it('takes the call without a body too', async () => {
    const res = await fetch(`${server.url}/api/admin/user/verification-code`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { code: number; data: { level: number } }).data.level).toBe(1);
  });

  it('after 3 failures for a username a captcha is required; a script cannot pass it without doing the work', async () => {
    for (let i = 0; i < 2; i++) expect((await fail('kim', '10.2.0.1')).body.data).toEqual({ captchaRequired: false });
    // The third failure tells the console to show the captcha from now on.
    expect((await fail('kim', '10.2.0.2')).body).toMatchObject({ code: 41001, data: { captchaRequired: true } });

    // Even the right password, from another address, is not accepted without a captcha.
    const zh = await login(server, { username: 'kim', password: PASSWORD, ip: '10.2.0.3' });
    expect(zh.body).toEqual({ code: 41002, msg: '请先完成人机验证', data: { captchaRequired: true }, status: 'fail' });
    const en = await login(server, { username: 'KIM', password: PASSWORD, ip: '10.2.0.3', lang: EN });
    expect(en.body).toMatchObject({ code: 41002, msg: 'Complete the verification first' });

    // What a script tries instead of the work: guessed counters, a key of its own, a re-signed
    // easier challenge, garbage. None of them pass.
    const { challenge } = await fetchChallenge(server, '10.2.0.3', 'kim');
    const attempts = [
      encode({ challenge, solution: { counter: 0, derivedKey: '00'.repeat(32) } }),
      encode({ challenge, solution: { counter: 1, derivedKey: challenge.parameters.keyPrefix } }),
      encode({ challenge: { ...challenge, parameters: { ...challenge.parameters, keyPrefix: '00' } }, solution: { counter: 1, derivedKey: '00'.repeat(32) } }),
      encode({ challenge: { ...challenge, parameters: { ...challenge.parameters, data: { id: crypto.randomUUID(), level: 9 } } }, solution: { counter: 1, derivedKey: '00' } }),
      'not base64 json',
    ];
    for (const captcha of attempts) {
      const res = await login(server, { username: 'kim', password: PASSWORD, ip: '10.2.0.3', captcha, lang: EN });
      expect(res.body).toEqual({ code: 41003, msg: 'The verification is invalid or has expired, verify again', data: { captchaRequired: true }, status: 'fail' });
    }

    // The real work passes, once: the same solution again is refused (single use, on every node: the id is stored).
    const solved = await solve(challenge);
    const ok = await login(server, { username: 'kim', password: PASSWORD, ip: '10.2.0.3', captcha: solved.captcha });
    expect(ok.body.code).toBe(0);
    const [used] = await server.ctx.db.select().from(captchas).where(eq(captchas.id, String(challenge.parameters.data!.id)));
    expect(used!.usedAt).toBeInstanceOf(Date);
    for (let i = 0; i < 3; i++) await fail('kim', '10.2.0.5');
    const reused = await login(server, { username: 'kim', password: PASSWORD, ip: '10.2.0.5', captcha: solved.captcha });
    expect(reused.body).toMatchObject({ code: 41003, msg: '人机验证无效或已过期，请重新验证' });
    expect((await login(server, { username: 'kim', password: PASSWORD, ip: '10.2.0.5', ...(await solvedCaptcha(server, '10.2.0.5', 'kim')) })).body.code).toBe(0);

    // The success resets the username's count: the next sign-in needs no captcha.
    expect((await login(server, { username: 'kim', password: PASSWORD, ip: '10.2.0.4' })).body.code).toBe(0);
    const reasons = (await attemptRows(server, 'kim')).map((a) => a.reason);
    expect(reasons).toEqual([
      ...Array<string>(3).fill('wrong_password'),
      'captcha_required',
      'captcha_required',
      ...Array<string>(5).fill('captcha_invalid'),
      'ok',
      ...Array<string>(3).fill('wrong_password'),
      'captcha_invalid',
      'ok',
      'ok',
    ]);
    const audited = (await auditRows(server, 'auth.login')).filter((r) => r.actorName.toLowerCase() === 'kim').map((r) => r.detail.reason ?? r.result);
    expect(audited).toEqual(reasons.map((r) => (r === 'ok' ? 'success' : r)));
  });

  it('refuses an expired challenge, even solved', async () => {
    for (let i = 0; i < 3; i++) await fail('lou', '10.2.1.1');
    const stale = await issueChallenge(server.ctx, 1, new Date(Date.now() - 1000));
    const res = await login(server, { username: 'lou', password: PASSWORD, ip: '10.2.1.1', captcha: (await solve(stale)).captcha });
    expect(res.body.code).toBe(41003);
  });

  it('costs more with every failure, and a sign-in refuses a challenge easier than its failures call for', async () => {
    const work = server.ctx.config.captchaWork;
    expect(counterCeiling(server.ctx, 1)).toBe(work);
    expect(counterCeiling(server.ctx, 3)).toBe(4 * work);
    for (let i = 0; i < 3; i++) await fail('rae', `10.2.7.${i}`);
    const first = await fetchChallenge(server, '10.2.7.9', 'rae');
    expect(first.level).toBe(1);
    // The solver tries counters from 0: the counter it finds is the work it did.
    expect((await solve(first.challenge)).counter).toBeLessThanOrEqual(work);

    // Two more failures (each with a solved captcha): level 3, at least twice the first level's ceiling.
    for (let i = 0; i < 2; i++) await fail('rae', '10.2.7.20', await solvedCaptcha(server, '10.2.7.20', 'rae'));
    const third = await fetchChallenge(server, '10.2.7.21', 'rae');
    expect(third.level).toBe(3);
    const hard = await solve(third.challenge);
    expect(hard.counter).toBeGreaterThan(2 * work);

    // An easy challenge asked for without the username (or for another one) is not enough for rae.
    const easy = await fetchChallenge(server, '10.2.7.21');
    expect(easy.level).toBe(1);
    const tooEasy = await login(server, { username: 'rae', password: PASSWORD, ip: '10.2.7.21', captcha: (await solve(easy.challenge)).captcha });
    expect(tooEasy.body.code).toBe(41003);
    const right = await login(server, { username: 'rae', password: PASSWORD, ip: '10.2.7.21', captcha: hard.captcha });
    expect(right.body.code).toBe(0);
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

  it('locks a source after 8 wrong passwords for a username: that address is refused even the right password, others are not', async () => {
    // An attacker solving every captcha from one address.
    for (let i = 1; i <= 7; i++) {
      const res = await fail('pia', '10.2.4.66', i > 3 ? await solvedCaptcha(server, '10.2.4.66', 'pia') : {});
      expect(res.body.code, `attempt ${i}`).toBe(41001);
    }
    const eighth = await fail('pia', '10.2.4.66', await solvedCaptcha(server, '10.2.4.66', 'pia'));
    expect(eighth.body).toMatchObject({ code: 41004, msg: '登录失败次数过多，账号已临时锁定，请 15 分钟后再试' });
    const right = await login(server, { username: 'pia', password: PASSWORD, ip: '10.2.4.66', lang: EN, ...(await solvedCaptcha(server, '10.2.4.66', 'pia')) });
    expect(right.body).toEqual({
      code: 41004,
      msg: 'Too many failed sign-ins: the account is locked, try again in 15 minutes',
      data: { captchaRequired: true },
      status: 'fail',
    });
    const failures = (await auditRows(server, 'auth.login')).filter((r) => r.actorName === 'pia' && r.result === 'failure');
    expect(failures.at(-1)!.detail).toEqual({ reason: 'locked', lockedMinutes: 15 });
    // Refusals while locked are not password checks: they do not stretch the lock.
    expect((await attemptRows(server, 'pia')).filter((a) => a.reason === 'wrong_password')).toHaveLength(8);

    // pia, from her own address, is not locked by that stranger: she pays the proof of work, at its highest level.
    const challenge = await fetchChallenge(server, '10.2.4.1', 'pia');
    expect(challenge.level).toBe(6);
    const own = await login(server, { username: 'pia', password: PASSWORD, ip: '10.2.4.1', captcha: (await solve(challenge.challenge)).captcha });
    expect(own.body.code).toBe(0);
  });

  it('a stranger failing 8+ times for admin never locks out the browser admin signed in with before', async () => {
    const first = await login(server, { username: 'sol', password: PASSWORD, ip: '10.2.8.1' });
    const trust = first.body.data.security_token;
    // The stranger even shares the admin's address (an office NAT), and keeps going after the lock.
    for (let i = 1; i <= 10; i++) await fail('sol', '10.2.8.1', i > 3 ? await solvedCaptcha(server, '10.2.8.1', 'sol') : {});
    expect((await login(server, { username: 'sol', password: PASSWORD, ip: '10.2.8.1', ...(await solvedCaptcha(server, '10.2.8.1', 'sol')) })).body.code).toBe(41004);

    const mine = await login(server, { username: 'sol', password: PASSWORD, ip: '10.2.8.1', securityToken: trust });
    expect(mine.body.code).toBe(0);
    const fromHome = await login(server, { username: 'sol', password: PASSWORD, ip: '10.2.8.2', securityToken: mine.body.data.security_token });
    expect(fromHome.body.code).toBe(0);

    // A stolen trust token is no key to guessing: wrong passwords with it lock trusted browsers after 8.
    for (let i = 1; i <= 7; i++) expect((await fail('sol', `10.2.8.${10 + i}`, { securityToken: trust })).body.code).toBe(41001);
    expect((await fail('sol', '10.2.8.30', { securityToken: trust })).body.code).toBe(41004);
    expect((await login(server, { username: 'sol', password: PASSWORD, ip: '10.2.8.1', securityToken: trust })).body.code).toBe(41004);
    const rows = await attemptRows(server, 'sol');
    expect(rows.filter((r) => r.trusted && r.reason === 'wrong_password')).toHaveLength(8);
  });

  it('locks unknown usernames exactly like real ones', async () => {
    let last;
    for (let i = 0; i < 8; i++) last = await fail('nobody-at-all', '10.2.5.1', i >= 3 ? await solvedCaptcha(server, '10.2.5.1', 'nobody-at-all') : {});
    expect(last!.body.code).toBe(41004);
  });

  it('the lock lifts once its window has passed', async () => {
    expect((await login(server, { username: 'nobody-at-all', password: PASSWORD, ip: '10.2.5.1' })).body.code).toBe(41004);
    // The window passes (moved back in time here): neither the lock nor the captcha stays.
    await server.ctx.db
      .update(loginAttempts)
      .set({ at: sql`${loginAttempts.at} - interval '16 minutes'` })
      .where(and(eq(loginAttempts.username, 'nobody-at-all')));
    const after = await fail('nobody-at-all', '10.2.5.1');
    expect(after.body).toMatchObject({ code: 41001, data: { captchaRequired: false } });
  });

  it('a success resets the username count: failures before it no longer count toward the lock', async () => {
    for (let i = 0; i < 7; i++) await fail('quin', '10.2.6.1', i >= 3 ? await solvedCaptcha(server, '10.2.6.1', 'quin') : {});
    expect((await login(server, { username: 'quin', password: PASSWORD, ip: '10.2.6.1', ...(await solvedCaptcha(server, '10.2.6.1', 'quin')) })).body.code).toBe(0);
    const next = await fail('quin', '10.2.6.2');
    expect(next.body).toMatchObject({ code: 41001, data: { captchaRequired: false } });
  });
});
