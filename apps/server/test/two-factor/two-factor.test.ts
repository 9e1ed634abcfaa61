import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffSession, TwoFactorStatus, UserInfo } from '@mowerline/contract';
import { emailLogs } from '../../src/email/email.sql.ts';
import { staffUsers } from '../../src/staff/staff.sql.ts';
import { staffFactors, recoveryCodes } from '../../src/two-factor/two-factor.sql.ts';
import { ADMIN, type TestServer } from '../harness.ts';
import { addStaff, auditRows, EN, from, PASSWORD, startAuthServer } from '../auth/fixtures.ts';
import { codeOf, enrolTotp, passwordStep, secondStep } from './fixtures.ts';

describe('two-factor sign-in (REQUIRE_2FA_ROLES=admin)', () => {
  let server: TestServer;
  let admin: string;
  let secret: string;
  let codes: string[];
  /**
   * A step once used is refused (replay), and only the current step (±1) is accepted: where a test
   * needs another code within the same 30 seconds, it forgets the used step, as time passing would.
   */
  const nextCode = async () => {
    await server.ctx.db.update(staffFactors).set({ lastStep: 0 });
    return codeOf(secret);
  };

  beforeAll(async () => {
    server = await startAuthServer({ config: { require2faRoles: ['admin'], lockoutAfterFailures: 3, captchaAfterFailures: 50 } });
    admin = await server.login();
    // Mails about factors go to the account's address.
    await server.ctx.db.update(staffUsers).set({ email: 'root@mowerline.test' }).where(eq(staffUsers.username, ADMIN.username));
  });
  afterAll(() => server.close());

  it('an admin without a factor signs in, but reaches only the enrolment calls until it enrols', async () => {
    const info = await server.api<UserInfo>('GET', '/api/admin/user/info', { token: admin });
    expect(info.body.data.mustEnrolSecondFactor).toBe(true);
    const list = await server.api('GET', '/api/admin/user', { token: admin, lang: EN });
    expect(list.status).toBe(403);
    expect(list.body).toMatchObject({ code: 41043, msg: 'Enrol a second factor first (user center)' });
    const zh = await server.api('GET', '/api/admin/device', { token: admin });
    expect(zh.body).toMatchObject({ code: 41043, msg: '请先在个人中心绑定第二验证因素' });
    expect((await server.api('POST', '/api/user/menu', { token: admin })).body.code).toBe(0);
    const status = await server.api<TwoFactorStatus>('GET', '/api/admin/user/two-factor', { token: admin });
    expect(status.body.data).toMatchObject({ factors: [], recoveryCodesLeft: 0, required: true });
  });

  it('a wrong first code does not activate the authenticator; the right one does, with 10 recovery codes, a mail and an audit row', async () => {
    const start = await server.api<{ factorId: number; secret: string; uri: string; qr: string }>('POST', '/api/admin/user/two-factor/totp', { token: admin, body: {} });
    expect(start.body.data.uri).toMatch(/^otpauth:\/\/totp\/Mowerline:admin\?/);
    expect(start.body.data.qr).toMatch(/^data:image\/svg\+xml;base64,/);
    const wrong = await server.api('POST', '/api/admin/user/two-factor/totp/confirm', { token: admin, body: { factorId: start.body.data.factorId, code: '000000' } });
    expect(wrong.body.code).toBe(41041);
    expect((await server.api('GET', '/api/admin/user', { token: admin })).body.code).toBe(41043);

    const enrolled = await enrolTotp(server, admin);
    secret = enrolled.secret;
    codes = enrolled.recoveryCodes!;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    // The abandoned enrolment went; the secret is stored sealed, the codes only hashed.
    const rows = await server.ctx.db.select().from(staffFactors);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.secret).not.toContain(secret);
    const stored = await server.ctx.db.select().from(recoveryCodes);
    expect(stored.map((r) => r.codeHash)).not.toContain(codes[0]);

    expect((await server.api('GET', '/api/admin/user', { token: admin })).body.code).toBe(0);
    const status = await server.api<TwoFactorStatus>('GET', '/api/admin/user/two-factor', { token: admin });
    expect(status.body.data).toMatchObject({ factors: [{ kind: 'totp', name: 'Phone' }], recoveryCodesLeft: 10, required: true });
    expect(JSON.stringify(status.body)).not.toContain(secret);
    expect((await auditRows(server, 'auth.2fa.enrol')).map((r) => r.result)).toEqual(['failure', 'success']);
    const mails = await server.ctx.db.select().from(emailLogs).where(eq(emailLogs.template, 'factor-added'));
    expect(mails).toHaveLength(1);
  });

  it('a right password alone gives no token: SECOND_FACTOR_REQUIRED with a challenge, in both languages', async () => {
    const zh = await passwordStep(server, ADMIN.username, ADMIN.password, from('10.9.0.1'));
    expect(zh.status).toBe(400);
    expect(zh.body).toMatchObject({ code: 41040, msg: expect.stringContaining('第二步验证'), data: { factors: ['totp', 'recovery'], expiresIn: 300 } });
    expect(zh.body.data).not.toHaveProperty('access_token');
    const en = await passwordStep(server, ADMIN.username, ADMIN.password, from('10.9.0.1'), EN);
    expect(en.body.msg).toBe('Second factor required: enter the code from your authenticator app or a recovery code');
  });

  it('the second step with the TOTP code gives the token; the challenge and the code work once', async () => {
    const challengeId = (await passwordStep(server, ADMIN.username, ADMIN.password, from('10.9.0.2'))).body.data.challengeId;
    const code = await nextCode();
    const ok = await secondStep(server, { challengeId, totp: code }, from('10.9.0.2'));
    expect(ok.body.code).toBe(0);
    const token = ok.body.data.access_token;
    expect((await server.api('GET', '/api/admin/user', { token })).body.code).toBe(0);
    expect((await secondStep(server, { challengeId, totp: '123456' }, from('10.9.0.2'))).body.code).toBe(41042);
    // The same code on a new challenge: a replay.
    const again = (await passwordStep(server, ADMIN.username, ADMIN.password, from('10.9.0.2'))).body.data.challengeId;
    expect((await secondStep(server, { challengeId: again, totp: code }, from('10.9.0.2'))).body.code).toBe(41041);
    const logins = await auditRows(server, 'auth.login');
    expect(logins.at(-2)).toMatchObject({ result: 'success', detail: { factor: 'totp' } });
  });

  it('a recovery code signs in once', async () => {
    const first = (await passwordStep(server, ADMIN.username, ADMIN.password, from('10.9.0.3'))).body.data.challengeId;
    expect((await secondStep(server, { challengeId: first, recoveryCode: codes[0]!.toUpperCase() }, from('10.9.0.3'))).body.code).toBe(0);
    const second = (await passwordStep(server, ADMIN.username, ADMIN.password, from('10.9.0.3'))).body.data.challengeId;
    expect((await secondStep(server, { challengeId: second, recoveryCode: codes[0]! }, from('10.9.0.3'))).body.code).toBe(41041);
    const status = await server.api<TwoFactorStatus>('GET', '/api/admin/user/two-factor', { token: admin });
    expect(status.body.data.recoveryCodesLeft).toBe(9);
  });

  it('wrong codes count toward the lock-out like wrong passwords; then even the right code is refused', async () => {
    const ip = from('10.9.0.4');
    const challengeId = (await passwordStep(server, ADMIN.username, ADMIN.password, ip)).body.data.challengeId;
    expect((await secondStep(server, { challengeId, totp: '111111' }, ip)).body.code).toBe(41041);
    expect((await secondStep(server, { challengeId, totp: '222222' }, ip)).body.code).toBe(41041);
    // The third wrong code (LOCKOUT_AFTER_FAILURES=3) locks this source.
    expect((await secondStep(server, { challengeId, totp: '333333' }, ip)).body.code).toBe(41004);
    expect((await secondStep(server, { challengeId, totp: (await nextCode()) }, ip)).body.code).toBe(41004);
    expect((await passwordStep(server, ADMIN.username, ADMIN.password, ip)).body.code).toBe(41004);
    // Another address is not locked by this one's failures.
    expect((await passwordStep(server, ADMIN.username, ADMIN.password, from('10.9.0.5'))).body.code).toBe(41040);
  });

  it('a challenge id that was never issued or has expired is refused', async () => {
    expect((await secondStep(server, { challengeId: '00000000-0000-4000-8000-000000000009', totp: '123456' })).body.code).toBe(41042);
  });

  it('sessions: listed with browser and last seen; revoking one signs it out at once; revoke all others', async () => {
    const browser = { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36', 'x-forwarded-for': '10.9.0.6' };
    const challengeId = (await passwordStep(server, ADMIN.username, ADMIN.password, browser)).body.data.challengeId;
    const other = (await secondStep(server, { challengeId, totp: (await nextCode()) }, browser)).body.data.access_token;
    const list = await server.api<StaffSession[]>('GET', '/api/admin/user/sessions', { token: admin });
    const chrome = list.body.data.find((s) => s.ip === '10.9.0.6')!;
    expect(chrome).toMatchObject({ device: 'Chrome on Windows', current: false });
    expect(list.body.data.filter((s) => s.current)).toHaveLength(1);
    expect((await server.api('DELETE', `/api/admin/user/sessions/${chrome.id}`, { token: admin })).body.data).toEqual({ revoked: 1 });
    expect((await server.api('GET', '/api/admin/user/info', { token: other })).status).toBe(401);

    const res = await server.api<{ revoked: number }>('POST', '/api/admin/user/sessions/revoke-others', { token: admin });
    expect(res.body.data.revoked).toBeGreaterThan(0);
    const after = await server.api<StaffSession[]>('GET', '/api/admin/user/sessions', { token: admin });
    expect(after.body.data.map((s) => s.current)).toEqual([true]);
  });

  it('an admin sees and revokes a staff member’s sessions, and resets their factors (mail, audit); never their own', async () => {
    const kim = await addStaff(server, admin, 'kim2fa');
    const kimToken = await server.login('kim2fa', PASSWORD);
    await enrolTotp(server, kimToken);
    const sessions = await server.api<StaffSession[]>('GET', `/api/admin/user/${kim.id}/sessions`, { token: admin });
    expect(sessions.body.data).toHaveLength(1);
    expect((await server.api('DELETE', `/api/admin/user/${kim.id}/sessions/${sessions.body.data[0]!.id}`, { token: admin })).body.code).toBe(0);
    expect((await server.api('GET', '/api/admin/user/info', { token: kimToken })).status).toBe(401);

    expect((await passwordStep(server, 'kim2fa', PASSWORD)).body.code).toBe(41040);
    expect((await server.api('POST', `/api/admin/user/${kim.id}/two-factor/reset`, { token: admin })).body.code).toBe(0);
    expect((await passwordStep(server, 'kim2fa', PASSWORD)).body.code).toBe(0);
    expect((await auditRows(server, 'staff.2fa.reset')).at(-1)).toMatchObject({ result: 'success', targetName: 'kim2fa' });
    const mails = await server.ctx.db.select().from(emailLogs).where(eq(emailLogs.template, 'factors-reset'));
    expect(mails.map((m) => m.to)).toEqual(['kim2fa@mowerline.test']);

    const self = await server.api('POST', '/api/admin/user/1/two-factor/reset', { token: admin });
    expect(self.body.code).toBe(41012);
  });

  it('step-up: a second factor renews the confirmation; the password is not one for an account with a factor', async () => {
    expect((await server.api('POST', '/api/admin/user/step-up', { token: admin, body: { password: ADMIN.password } })).body.code).toBe(41046);
    const ok = await server.api<{ stepUpUntil: string }>('POST', '/api/admin/user/step-up', { token: admin, body: { totp: (await nextCode()) } });
    expect(ok.body.code).toBe(0);
    expect(Date.parse(ok.body.data.stepUpUntil)).toBeGreaterThan(Date.now());
    expect((await server.api('POST', '/api/admin/user/step-up', { token: admin, body: { recoveryCode: codes[1]! } })).body.code).toBe(0);
    expect((await server.api('POST', '/api/admin/user/step-up', { token: admin, body: { recoveryCode: codes[1]! } })).body.code).toBe(41046);
  });

  it('removing the last factor takes the recovery codes with it and sends the account back to enrolment', async () => {
    const status = await server.api<TwoFactorStatus>('GET', '/api/admin/user/two-factor', { token: admin });
    const id = status.body.data.factors[0]!.id;
    expect((await server.api('DELETE', `/api/admin/user/two-factor/${id}`, { token: admin })).body.code).toBe(0);
    expect(await server.ctx.db.select().from(recoveryCodes)).toHaveLength(0);
    expect((await server.api('GET', '/api/admin/user', { token: admin })).body.code).toBe(41043);
    const mails = await server.ctx.db.select().from(emailLogs).where(eq(emailLogs.template, 'factor-removed'));
    expect(mails).toHaveLength(1);
  });
});
