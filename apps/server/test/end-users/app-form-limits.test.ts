import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errors } from '@mowerline/contract';
import { emailLogs } from '../../src/email/email.sql.ts';
import { createAppAccount } from '../../src/end-users/accounts.service.ts';
import { appCodes, appUsers } from '../../src/end-users/end-users.sql.ts';
import type { ApiResponse, TestServer } from '../harness.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../smtp.ts';
import { APP_PASSWORD, appLogin, EN, mailedCode, uniqueEmail, ZH } from './fixtures.ts';

const LIMITED = errors.APP_FORM_LIMITED.code;

/**
 * The app's mailing forms under attack: one address asked for 35 times, from one or many IPs; one
 * IP asking for many addresses; an e-mail registered twice; a reset code guessed. Production
 * limits (3 mails per mailbox per 15 minutes, 10 requests per IP and form per hour).
 */
describe('app forms limited per mailbox and per address', () => {
  let smtp: SmtpReceiver;
  let server: TestServer;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await (await import('./fixtures.ts')).startEndUserServer(smtp, { config: { trustProxy: true, formLimitPerIp: 10 } });
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  const from = (ip: string) => ({ 'x-forwarded-for': ip });
  const post = (path: string, body: unknown, ip: string, lang = EN) => server.api('POST', `/api/app/v1/user/${path}`, { body, headers: from(ip), lang });
  const mailsTo = async (to: string, template?: string) =>
    (await server.ctx.db.select().from(emailLogs).where(eq(emailLogs.to, to))).filter((m) => !template || m.template === template);
  /** An active account made in-process, so none of the form's quota is used by the set-up. */
  async function activeUser(locale: 'zh-CN' | 'en-US' = 'en-US') {
    const email = uniqueEmail('limited');
    const { id } = await createAppAccount(server.ctx, { email, password: APP_PASSWORD, name: 'Lim Ited', country: 'DE', locale, timeZone: 'Europe/Berlin' });
    await server.ctx.db.update(appUsers).set({ status: 'active' }).where(eq(appUsers.id, id));
    return { email, id };
  }
  function expectLimited(res: ApiResponse, maxSeconds: number) {
    expect(res.status).toBe(429);
    expect(res.body.code).toBe(LIMITED);
    const seconds = Number(res.headers.get('retry-after'));
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(maxSeconds);
    expect(res.body.data).toEqual({ retryAfterSeconds: seconds });
    return seconds;
  }

  it('35 forgot-password calls for one address from one IP: 3 mails, the rest refused with the wait (both languages)', async () => {
    const { email } = await activeUser();
    const answers: ApiResponse[] = [];
    for (let i = 0; i < 35; i++) answers.push(await post('forgot-password', { email }, '10.20.0.1', i % 2 ? ZH : EN));
    expect(answers.slice(0, 3).map((r) => r.body.code)).toEqual([0, 0, 0]);
    for (const res of answers.slice(3)) expectLimited(res, 3600);
    // Refused by the mailbox's quarter first (the address is still within its hour).
    const quarter = expectLimited(answers[3]!, 15 * 60);
    expect(answers[3]!.body.msg).toBe(errors.APP_FORM_LIMITED['zh-CN'].replace('{seconds}', String(quarter)));
    expect(answers[4]!.body.msg).toMatch(/^Too many requests for this e-mail or from this address: try again in \d+ s$/);
    await expect.poll(async () => (await mailsTo(email, 'app-password-reset')).length).toBe(3);
    expect(smtp.mails.filter((m) => m.to.includes(email))).toHaveLength(3);
  });

  it('different IPs do not get past the mailbox limit, and register, resend-code and forgot-password share it', async () => {
    const { email } = await activeUser();
    const codes: number[] = [];
    for (let i = 0; i < 8; i++) codes.push((await post('forgot-password', { email }, `10.21.0.${i}`)).body.code);
    expect(codes).toEqual([0, 0, 0, LIMITED, LIMITED, LIMITED, LIMITED, LIMITED]);
    await expect.poll(async () => (await mailsTo(email)).length).toBe(3);

    const fresh = uniqueEmail('shared');
    const body = { email: fresh, password: APP_PASSWORD, name: 'New Comer', country: 'DE', locale: 'en-US', timeZone: 'Europe/Berlin' };
    expect((await post('register', body, '10.22.0.1')).body.code).toBe(0);
    expect((await post('resend-code', { email: fresh }, '10.22.0.2')).body.code).toBe(0);
    expect((await post('forgot-password', { email: fresh }, '10.22.0.3')).body.code).toBe(0);
    expectLimited(await post('resend-code', { email: fresh }, '10.22.0.4'), 15 * 60);
    expectLimited(await post('register', body, '10.22.0.5'), 15 * 60);
  });

  it('an unknown address is limited exactly like a known one (the refusal tells nothing)', async () => {
    const nobody = uniqueEmail('nobody');
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await post('forgot-password', { email: nobody }, `10.23.0.${i}`)).body.code);
    expect(codes).toEqual([0, 0, 0, LIMITED, LIMITED]);
    expect(await mailsTo(nobody)).toHaveLength(0);
  });

  it('one IP: 10 requests an hour per form, each form apart', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) codes.push((await post('forgot-password', { email: uniqueEmail('spray') }, '10.24.0.1')).body.code);
    expect(codes.slice(0, 10)).toEqual(Array<number>(10).fill(0));
    const last = await post('forgot-password', { email: uniqueEmail('spray') }, '10.24.0.1');
    expectLimited(last, 3600);
    expect((await post('resend-code', { email: uniqueEmail('spray') }, '10.24.0.1')).body.code).toBe(0);
    // Another address of the same IPv6 /64 counts as the same source.
    const v6 = Array.from({ length: 11 }, (_, i) => post('forgot-password', { email: uniqueEmail('v6') }, `2001:db8:1:2::${i + 1}`));
    expect((await Promise.all(v6)).filter((r) => r.body.code === LIMITED)).toHaveLength(1);
  });

  it('registering an e-mail that has an account answers exactly like a new one, and mails its owner', async () => {
    const owner = await activeUser('zh-CN');
    const body = (email: string) => ({ email, password: 'An0ther#Secret9', name: 'Intruder', country: 'FR', locale: 'en-US', timeZone: 'Europe/Paris' });
    const fresh = uniqueEmail('fresh');
    const forNew = await post('register', body(fresh), '10.25.0.1');
    const forTaken = await post('register', body(owner.email), '10.25.0.2');
    const shape = (res: ApiResponse) => ({ status: res.status, code: res.body.code, msg: res.body.msg, keys: Object.keys(res.body.data as object).sort(), state: (res.body.data as { status: string }).status });
    expect(shape(forTaken)).toEqual(shape(forNew));
    expect(forTaken.body.data).toMatchObject({ email: owner.email, status: 'unverified', codeExpiresAt: expect.any(String) });
    expect(Math.abs(Date.parse((forTaken.body.data as { codeExpiresAt: string }).codeExpiresAt) - Date.parse((forNew.body.data as { codeExpiresAt: string }).codeExpiresAt))).toBeLessThan(60_000);

    // The owner is told, in their language; the account and its password are untouched.
    const warning = await smtp.waitFor((m) => m.to.includes(owner.email));
    expect(warning.subject).toBe('有人尝试用您的邮箱注册 Mowerline');
    await expect.poll(async () => (await mailsTo(owner.email, 'app-register-existing')).length).toBe(1);
    const [row] = await server.ctx.db.select().from(appUsers).where(eq(appUsers.email, owner.email));
    expect(row).toMatchObject({ name: 'Lim Ited', status: 'active', country: 'DE' });
    expect((await appLogin(server, owner.email)).access_token).toBeTruthy();
    // The new e-mail got its code.
    expect(await mailedCode(smtp, fresh, 'verify')).toMatch(/^\d{6}$/);
  });

  it('a reset code dies after 5 wrong tries, even tried all at once, and then the right code no longer works', async () => {
    const user = await activeUser();
    const mark = smtp.mails.length;
    expect((await post('forgot-password', { email: user.email }, '10.26.0.1')).body.code).toBe(0);
    const code = await mailedCode(smtp, user.email, 'reset', mark);
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
    const guesses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => post('reset-password', { email: user.email, code: wrong(i), newPassword: 'Gu3ssed#Pass' }, `10.26.1.${i}`)),
    );
    expect(guesses.every((r) => r.body.code === errors.APP_CODE_INVALID.code)).toBe(true);
    const [stored] = await server.ctx.db.select().from(appCodes).where(and(eq(appCodes.userId, user.id), eq(appCodes.purpose, 'reset')));
    expect(stored?.attempts).toBe(5);
    expect(stored?.usedAt).not.toBeNull();
    const right = await post('reset-password', { email: user.email, code, newPassword: 'R1ght#Too-Late' }, '10.26.0.1');
    expect(right.body.code).toBe(errors.APP_CODE_INVALID.code);
    expect((await appLogin(server, user.email)).access_token).toBeTruthy();
  });
});
