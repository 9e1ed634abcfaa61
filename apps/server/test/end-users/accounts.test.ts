import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_DELETION_GRACE_DAYS, errors } from '@mowerline/contract';
import { eraseDueAccounts } from '../../src/end-users/admin.service.ts';
import { appCodes, appDeviceLinks, appUsers } from '../../src/end-users/end-users.sql.ts';
import { emailLogs } from '../../src/email/email.sql.ts';
import type { TestServer } from '../harness.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../smtp.ts';
import { APP_PASSWORD, appLogin, appUserSignedIn, createModelAndSn, EN, logRows, mailedCode, registerApp, uniqueEmail, ZH } from './fixtures.ts';

describe('app accounts', () => {
  let smtp: SmtpReceiver;
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await (await import('./fixtures.ts')).startEndUserServer(smtp);
    admin = await server.login();
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  it('registers, mails a code (logged, never stored in clear), verifies, signs in, refreshes and signs out', async () => {
    const { email, id } = await registerApp(server, { locale: 'zh-CN' });
    const code = await mailedCode(smtp, email, 'verify');
    // The mail goes out after the answer; its log row follows the delivery.
    await expect.poll(async () => (await server.ctx.db.select().from(emailLogs).where(eq(emailLogs.to, email)))[0]?.template).toBe('app-verify');
    const stored = await server.ctx.db.select().from(appCodes).where(eq(appCodes.userId, id));
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(code);

    const early = await server.api('POST', '/api/app/v1/user/login', { body: { email, password: APP_PASSWORD }, lang: ZH });
    expect(early.body.code).toBe(errors.APP_NOT_VERIFIED.code);
    expect(early.body.msg).toBe(errors.APP_NOT_VERIFIED['zh-CN']);

    const wrong = await server.api('POST', '/api/app/v1/user/verify', { body: { email, code: code === '000000' ? '111111' : '000000' }, lang: EN });
    expect(wrong.body.code).toBe(errors.APP_CODE_INVALID.code);
    expect((await server.api('POST', '/api/app/v1/user/verify', { body: { email, code } })).body.code).toBe(0);

    const tokens = await appLogin(server, email.toUpperCase());
    expect(tokens.refresh_token).toBeTruthy();
    const profile = await server.api<{ email: string; status: string }>('GET', '/api/app/v1/user/profile', { token: tokens.access_token });
    expect(profile.body.data).toMatchObject({ email, status: 'active' });

    const refreshed = await server.api<{ access_token: string; refresh_token: string }>('POST', '/api/app/v1/user/refresh', { body: { refresh_token: tokens.refresh_token } });
    expect(refreshed.body.code).toBe(0);
    expect((await server.api('GET', '/api/app/v1/user/profile', { token: refreshed.body.data.access_token })).status).toBe(200);
    // Signing out ends the session: its tokens (access and refresh) no longer work. (A reused refresh token: test/auth/refresh-reuse.test.ts.)
    const token = refreshed.body.data.access_token;
    expect((await server.api('POST', '/api/app/v1/user/logout', { token })).body.code).toBe(0);
    expect((await server.api('GET', '/api/app/v1/user/profile', { token })).status).toBe(401);
    expect((await server.api('POST', '/api/app/v1/user/refresh', { body: { refresh_token: refreshed.body.data.refresh_token } })).body.code).toBe(errors.APP_REFRESH_INVALID.code);

    const actions = (await logRows(server, id)).map((r) => `${r.action}:${r.result}`);
    expect(actions).toEqual(expect.arrayContaining(['register:success', 'login:failure', 'verify:failure', 'verify:success', 'login:success', 'logout:success']));
  });

  it('refuses a weak password, an unknown country, unknown fields, wrong types and an oversize body, in both languages, changing nothing', async () => {
    const { email } = await registerApp(server);
    const base = { email, password: APP_PASSWORD, name: 'B', country: 'DE', locale: 'en-US', timeZone: 'Europe/Berlin' };
    const before = (await server.ctx.db.select({ id: appUsers.id }).from(appUsers)).length;
    const cases: Array<[unknown, keyof typeof errors]> = [
      [{ ...base, email: uniqueEmail(), password: 'short' }, 'WEAK_PASSWORD'],
      [{ ...base, email: uniqueEmail(), country: 'QQ' }, 'APP_COUNTRY_UNKNOWN'],
      [{ ...base, email: uniqueEmail(), role: 'admin' }, 'VALIDATION'],
      [{ ...base, email: uniqueEmail(), name: 42 }, 'VALIDATION'],
      [{ ...base, email: uniqueEmail(), timeZone: 'Mars/Olympus' }, 'VALIDATION'],
    ];
    for (const [body, key] of cases) {
      for (const lang of [EN, ZH]) {
        const res = await server.api('POST', '/api/app/v1/user/register', { body, lang });
        expect(res.body.code, `${key} ${lang}`).toBe(errors[key].code);
        expect(res.body.msg.length).toBeGreaterThan(0);
        if (key !== 'VALIDATION' && key !== 'APP_COUNTRY_UNKNOWN') expect(res.body.msg).toBe(errors[key][lang as 'en-US' | 'zh-CN']);
      }
    }
    const huge = await server.api('POST', '/api/app/v1/user/register', { rawBody: JSON.stringify({ ...base, name: 'x'.repeat(2 * 1024 * 1024) }), lang: ZH });
    expect(huge.body.code).toBe(errors.BODY_TOO_LARGE.code);
    expect(huge.body.msg).toBe(errors.BODY_TOO_LARGE['zh-CN']);
    expect((await server.ctx.db.select({ id: appUsers.id }).from(appUsers)).length).toBe(before);
  });

  it('updates the profile (home coordinates fill country and city offline) and changes the password, ending other sessions', async () => {
    const user = await appUserSignedIn(server, smtp);
    const other = await appLogin(server, user.email);
    const put = await server.api<{ country: string; city: string; name: string }>('PUT', '/api/app/v1/user/profile', { token: user.token, body: { name: 'Anne', home: { lat: 48.8566, lng: 2.3522 } } });
    expect(put.body.data).toMatchObject({ name: 'Anne', country: 'FR', city: 'Paris' });
    expect((await server.api('PUT', '/api/app/v1/user/profile', { token: user.token, body: { country: 'ZZ' } })).body.code).toBe(errors.APP_COUNTRY_UNKNOWN.code);
    expect((await server.api('PUT', '/api/app/v1/user/profile', { token: user.token, body: { email: 'x@y.z' } })).body.code).toBe(errors.VALIDATION.code);

    const NEW = 'N3w#Lawn-Edge';
    expect((await server.api('PUT', '/api/app/v1/user/password', { token: user.token, body: { oldPassword: 'Wr0ng#Pass', newPassword: NEW } })).body.code).toBe(errors.WRONG_OLD_PASSWORD.code);
    expect((await server.api('PUT', '/api/app/v1/user/password', { token: user.token, body: { oldPassword: APP_PASSWORD, newPassword: 'weak' } })).body.code).toBe(errors.WEAK_PASSWORD.code);
    expect((await server.api('PUT', '/api/app/v1/user/password', { token: user.token, body: { oldPassword: APP_PASSWORD, newPassword: NEW } })).body.code).toBe(0);
    expect((await server.api('GET', '/api/app/v1/user/profile', { token: user.token })).body.code).toBe(0);
    expect((await server.api('GET', '/api/app/v1/user/profile', { token: other.access_token })).status).toBe(401);
    await appLogin(server, user.email, NEW);
    const actions = (await logRows(server, user.id)).map((r) => `${r.action}:${r.result}`);
    expect(actions).toEqual(expect.arrayContaining(['profile.update:success', 'profile.update:failure', 'password.change:failure', 'password.change:success']));
  });

  it('resets a forgotten password with the mailed code; unknown addresses look the same', async () => {
    const user = await appUserSignedIn(server, smtp);
    const mark = smtp.mails.length;
    expect((await server.api('POST', '/api/app/v1/user/forgot-password', { body: { email: user.email } })).body.code).toBe(0);
    expect((await server.api('POST', '/api/app/v1/user/forgot-password', { body: { email: uniqueEmail('nobody') } })).body.code).toBe(0);
    const code = await mailedCode(smtp, user.email, 'reset', mark);
    const NEW = 'R3set#Meadow';
    expect((await server.api('POST', '/api/app/v1/user/reset-password', { body: { email: user.email, code: code === '123456' ? '654321' : '123456', newPassword: NEW } })).body.code).toBe(
      errors.APP_CODE_INVALID.code,
    );
    expect((await server.api('POST', '/api/app/v1/user/reset-password', { body: { email: user.email, code, newPassword: NEW } })).body.code).toBe(0);
    expect((await server.api('GET', '/api/app/v1/user/profile', { token: user.token })).status).toBe(401);
    await appLogin(server, user.email, NEW);
    await expect.poll(async () => (await logRows(server, user.id)).map((r) => `${r.action}:${r.result}`)).toEqual(
      expect.arrayContaining(['password.forgot:success', 'password.reset:failure', 'password.reset:success']),
    );
  });

  it('exports the user’s own data', async () => {
    const user = await appUserSignedIn(server, smtp, { name: 'Exporter' });
    const res = await server.api<{ profile: { email: string }; devices: unknown[]; activity: Array<{ action: string }> }>('GET', '/api/app/v1/user/export', { token: user.token });
    expect(res.body.data.profile.email).toBe(user.email);
    expect(res.body.data.activity.map((a) => a.action)).toEqual(expect.arrayContaining(['register', 'verify', 'login']));
    expect((await logRows(server, user.id))[0]?.action).toBe('export');
  });

  it('deletes after the grace period (injected clock): sign-in cancels, then erasure unbinds and keeps pseudonymous log rows', async () => {
    const user = await appUserSignedIn(server, smtp);
    const { sn, pairingCode } = await createModelAndSn(server, admin, `DEL${Date.now().toString(36).toUpperCase()}`);
    expect((await server.api('POST', '/api/app/v1/devices/bind', { token: user.token, body: { sn, pairingCode } })).body.code).toBe(0);

    expect((await server.api('POST', '/api/app/v1/user/delete', { token: user.token, body: { password: 'Wr0ng#Pass' } })).body.code).toBe(errors.WRONG_OLD_PASSWORD.code);
    const del = await server.api<{ deletionAt: string }>('POST', '/api/app/v1/user/delete', { token: user.token, body: { password: APP_PASSWORD } });
    expect(del.body.code).toBe(0);
    expect(new Date(del.body.data.deletionAt).getTime() - Date.now()).toBeGreaterThan((APP_DELETION_GRACE_DAYS - 0.1) * 86_400_000);
    expect((await server.api('GET', '/api/app/v1/user/profile', { token: user.token })).status).toBe(401);

    // Signing in again within the grace period cancels the deletion.
    const again = await appLogin(server, user.email);
    expect((await server.api<{ status: string }>('GET', '/api/app/v1/user/profile', { token: again.access_token })).body.data.status).toBe('active');
    expect((await server.api('POST', '/api/app/v1/user/delete', { token: again.access_token, body: { password: APP_PASSWORD } })).body.code).toBe(0);

    // Not yet due one day before the end of the grace period; erased once it is over.
    const day = 86_400_000;
    expect(await eraseDueAccounts(server.ctx, new Date(Date.now() + (APP_DELETION_GRACE_DAYS - 1) * day))).not.toContain(user.id);
    expect(await eraseDueAccounts(server.ctx, new Date(Date.now() + (APP_DELETION_GRACE_DAYS + 1) * day))).toContain(user.id);
    expect(await server.ctx.db.select().from(appUsers).where(eq(appUsers.id, user.id))).toHaveLength(0);
    expect(await server.ctx.db.select().from(appDeviceLinks).where(eq(appDeviceLinks.sn, sn))).toHaveLength(0);
    const rows = await logRows(server, user.id);
    expect(rows.map((r) => r.action)).toEqual(expect.arrayContaining(['delete.request', 'delete.cancel', 'delete.complete', 'bind']));
    expect(rows.every((r) => r.email === '')).toBe(true);
    expect((await server.api('POST', '/api/app/v1/user/login', { body: { email: user.email, password: APP_PASSWORD } })).body.code).toBe(errors.APP_LOGIN_FAILED.code);
  });
});
