import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errors, type AppDevice, type CityDistribution, type CountryDistribution, type EndUserDetail, type EndUserPage, type UserLogPage } from '@mowerline/contract';
import { deviceState, devices } from '../../src/devices/devices.sql.ts';
import { PAIRING_FAILURES_PER_SN } from '../../src/end-users/binding.service.ts';
import { systemLogs } from '../../src/system-log/system-log.sql.ts';
import type { TestServer } from '../harness.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../smtp.ts';
import { operatorToken } from '../devices/fixtures.ts';
import { appLogin, confirmedAppUser, createModelAndSn, EN, logRows, registerApp, startEndUserServer, ZH } from './fixtures.ts';

const newSn = (prefix: string) => `${prefix}${randomBytes(4).toString('hex').toUpperCase()}`;

describe('device binding, the admin user list, its actions, the user log and the distribution', () => {
  let smtp: SmtpReceiver;
  let server: TestServer;
  let admin: string;
  let operator: string;
  let modelId: number;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startEndUserServer(smtp);
    admin = await server.login();
    operator = await operatorToken(server, admin);
    modelId = (await createModelAndSn(server, admin, newSn('SEED'))).modelId;
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  it('binds with the pairing code; refuses wrong codes (rate-limited per SN), someone else’s mower; shares, revokes, unbinds', async () => {
    const ann = await confirmedAppUser(server, admin, { name: 'Ann' });
    const bob = await confirmedAppUser(server, admin, { name: 'Bob' });
    const { sn, pairingCode } = await createModelAndSn(server, admin, newSn('BND'), modelId);
    expect(pairingCode).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);

    for (const lang of [EN, ZH]) {
      const wrong = await server.api('POST', '/api/app/v1/devices/bind', { token: ann.token, body: { sn, pairingCode: 'AAAAA-AAAAA' }, lang });
      expect(wrong.body.code).toBe(errors.PAIRING_INVALID.code);
      expect(wrong.body.msg).toBe(errors.PAIRING_INVALID[lang as 'en-US' | 'zh-CN']);
    }
    const bound = await server.api<AppDevice>('POST', '/api/app/v1/devices/bind', { token: ann.token, body: { sn, pairingCode: pairingCode.toLowerCase() } });
    expect(bound.body.data).toMatchObject({ sn, role: 'owner', ownerEmail: ann.email, online: false, state: 'offline' });
    const [registry] = await server.ctx.db.select({ owner: devices.owner }).from(devices).where(eq(devices.sn, sn));
    expect(registry?.owner).toBe(ann.email);

    const taken = await server.api('POST', '/api/app/v1/devices/bind', { token: bob.token, body: { sn, pairingCode } });
    expect(taken.body.code).toBe(errors.DEVICE_ALREADY_BOUND.code);
    expect((await server.api('POST', `/api/app/v1/devices/${sn}/share`, { token: bob.token, body: { email: ann.email } })).body.code).toBe(errors.APP_DEVICE_NOT_FOUND.code);
    expect((await server.api('POST', `/api/app/v1/devices/${sn}/share`, { token: ann.token, body: { email: ann.email } })).body.code).toBe(errors.SHARE_SELF.code);
    expect((await server.api('POST', `/api/app/v1/devices/${sn}/share`, { token: ann.token, body: { email: 'nobody@example.test' } })).body.code).toBe(errors.SHARE_TARGET_UNKNOWN.code);

    const shared = await server.api<AppDevice>('POST', `/api/app/v1/devices/${sn}/share`, { token: ann.token, body: { email: bob.email } });
    expect(shared.body.data.sharedWith).toEqual([bob.email]);
    await server.ctx.db.update(deviceState).set({ online: true, state: 'mowing', battery: 77, lat: 52.52, lng: 13.405 }).where(eq(deviceState.sn, sn));
    const bobs = await server.api<AppDevice[]>('GET', '/api/app/v1/devices', { token: bob.token });
    expect(bobs.body.data).toEqual([expect.objectContaining({ sn, role: 'shared', ownerEmail: ann.email, online: true, state: 'mowing', battery: 77 })]);
    expect((await server.api('POST', `/api/app/v1/devices/${sn}/share`, { token: bob.token, body: { email: ann.email } })).body.code).toBe(errors.NOT_DEVICE_OWNER.code);

    expect((await server.api<AppDevice>('POST', `/api/app/v1/devices/${sn}/revoke`, { token: ann.token, body: { email: bob.email } })).body.data.sharedWith).toEqual([]);
    expect((await server.api<AppDevice[]>('GET', '/api/app/v1/devices', { token: bob.token })).body.data).toEqual([]);
    expect((await server.api('POST', `/api/app/v1/devices/${sn}/unbind`, { token: ann.token })).body.code).toBe(0);
    expect((await server.api('POST', `/api/app/v1/devices/${sn}/unbind`, { token: ann.token })).body.code).toBe(errors.APP_DEVICE_NOT_FOUND.code);
    // Freed: now Bob can bind it.
    expect((await server.api('POST', '/api/app/v1/devices/bind', { token: bob.token, body: { sn, pairingCode } })).body.code).toBe(0);

    // Wrong codes for one SN are limited, even with the right code afterwards.
    const target = await createModelAndSn(server, admin, newSn('RL'), modelId);
    for (let i = 0; i < PAIRING_FAILURES_PER_SN; i++) await server.api('POST', '/api/app/v1/devices/bind', { token: ann.token, body: { sn: target.sn, pairingCode: 'BBBBB-BBBBB' } });
    const limited = await server.api('POST', '/api/app/v1/devices/bind', { token: bob.token, body: { sn: target.sn, pairingCode: target.pairingCode } });
    expect(limited.body.code).toBe(errors.RATE_LIMITED.code);

    const annLog = (await logRows(server, ann.id)).map((r) => `${r.action}:${r.result}`);
    expect(annLog).toEqual(expect.arrayContaining(['bind:failure', 'bind:success', 'share:failure', 'share:success', 'revoke:success', 'unbind:success', 'unbind:failure']));
  });

  it('lists users with filters and cursor paging, shows the detail, and enforces roles on actions, each audited', async () => {
    const tag = randomBytes(3).toString('hex');
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await registerApp(server, { email: `list${tag}${i}@example.test`, name: `Lister ${tag}`, country: i < 3 ? 'JP' : 'BR', city: i < 3 ? 'Osaka' : 'Recife' })).id);
    const list = (query: string, token = operator) => server.api<EndUserPage>('GET', `/api/admin/end-user?${query}`, { token });
    expect((await list(`keyword=list${tag}`)).body.data.total).toBe(5);
    expect((await list(`keyword=lister%20${tag}`)).body.data.total).toBe(5);
    expect((await list(`keyword=list${tag}&country=JP&city=Osaka`)).body.data.total).toBe(3);
    expect((await list(`keyword=list${tag}&status=unverified`)).body.data.total).toBe(5);
    expect((await list(`keyword=list${tag}&hasDevice=true`)).body.data.total).toBe(0);
    expect((await list(`keyword=list${tag}&registeredFrom=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).body.data.total).toBe(0);
    const first = await list(`keyword=list${tag}&pageSize=2`);
    expect(first.body.data.list.map((u) => u.id)).toEqual([ids[4], ids[3]]);
    const next = await list(`keyword=list${tag}&pageSize=2&cursor=${first.body.data.nextCursor}`);
    expect(next.body.data.list.map((u) => u.id)).toEqual([ids[2], ids[1]]);
    expect((await list('cursor=abc')).body.code).toBe(errors.INVALID_CURSOR.code);
    expect((await list('bogus=1')).body.code).toBe(errors.VALIDATION.code);

    const id = ids[0]!;
    const confirm = await server.api<{ status: string }>('POST', `/api/admin/end-user/${id}/confirm`, { token: operator });
    expect(confirm.body.data.status).toBe('active');
    expect((await server.api('POST', `/api/admin/end-user/${id}/confirm`, { token: operator })).body.code).toBe(errors.END_USER_STATE.code);
    const email = `list${tag}0@example.test`;
    const session = await appLogin(server, email);

    expect((await server.api('POST', `/api/admin/end-user/${id}/disable`, { token: operator, body: { reason: 'abuse' } })).status).toBe(403);
    expect((await server.api('POST', `/api/admin/end-user/${id}/disable`, { token: admin, body: {} })).body.code).toBe(errors.VALIDATION.code);
    expect((await server.api('POST', `/api/admin/end-user/${id}/disable`, { token: admin, body: { reason: 'abuse' } })).body.code).toBe(0);
    expect((await server.api('GET', '/api/app/v1/user/profile', { token: session.access_token })).status).toBe(401);
    expect((await server.api('POST', '/api/app/v1/user/login', { body: { email, password: 'Mow3r#Garden8' } })).body.code).toBe(errors.APP_ACCOUNT_DISABLED.code);
    expect((await server.api('POST', `/api/admin/end-user/${id}/enable`, { token: admin, body: {} })).body.code).toBe(0);
    expect((await server.api('POST', `/api/admin/end-user/${id}/send-reset`, { token: operator })).body.code).toBe(0);
    await smtp.waitFor((m) => m.to.includes(email) && /[Rr]eset/.test(m.subject));
    expect((await server.api('POST', `/api/admin/end-user/${id}/cancel-deletion`, { token: operator })).body.code).toBe(errors.END_USER_STATE.code);
    expect((await server.api('GET', '/api/admin/end-user/999999', { token: operator })).body.code).toBe(errors.END_USER_NOT_FOUND.code);

    const detail = await server.api<EndUserDetail>('GET', `/api/admin/end-user/${id}`, { token: operator });
    expect(detail.body.data).toMatchObject({ id, email, status: 'active', devices: [] });
    expect(detail.body.data.activity.map((a) => a.action)).toEqual(expect.arrayContaining(['register', 'login']));

    const audited = await server.ctx.db.select().from(systemLogs).where(eq(systemLogs.targetId, String(id)));
    expect(audited.map((r) => `${r.action}:${r.result}`)).toEqual(
      expect.arrayContaining(['end-user.confirm:success', 'end-user.confirm:failure', 'end-user.disable:success', 'end-user.enable:success', 'end-user.password-reset:success', 'end-user.deletion-cancel:failure']),
    );

    // Bulk exports of personal data are admin-only.
    expect((await server.api('GET', `/api/admin/end-user/export?keyword=list${tag}`, { token: operator })).status).toBe(403);
    const csv = await fetch(`${server.url}/api/admin/end-user/export?keyword=list${tag}`, { headers: { authorization: `Bearer ${admin}` } });
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect((await csv.text()).trim().split('\n')).toHaveLength(6);
  });

  it('filters the user log and exports it', async () => {
    const user = await confirmedAppUser(server, admin);
    await server.api('POST', '/api/app/v1/user/login', { body: { email: user.email, password: 'Wr0ng#Pass1' } });
    const page = await server.api<UserLogPage>('GET', `/api/admin/end-user/log?userId=${user.id}&action=login&result=failure`, { token: operator });
    expect(page.body.data.list).toHaveLength(1);
    expect(page.body.data.list[0]).toMatchObject({ email: user.email, ip: '127.0.0.1', country: 'DE' });
    const byEmail = await server.api<UserLogPage>('GET', `/api/admin/end-user/log?email=${encodeURIComponent(user.email)}`, { token: operator });
    expect(byEmail.body.data.list.map((r) => r.action)).toEqual(['login', 'login', 'register']);
    const csv = await fetch(`${server.url}/api/admin/end-user/log/export?userId=${user.id}`, { headers: { authorization: `Bearer ${admin}` } });
    expect((await csv.text()).trim().split('\n')).toHaveLength(4);
  });

  it('pages the user log by cursor and time, with the same query shape reused for other values', async () => {
    const [one, two] = [await confirmedAppUser(server, admin), await confirmedAppUser(server, admin)];
    const log = (query: string) => server.api<UserLogPage>('GET', `/api/admin/end-user/log?${query}`, { token: operator });
    const first = await log(`userId=${one.id}&pageSize=2`);
    expect(first.body.data.list.map((r) => r.action)).toEqual(['login', 'register']);
    expect(first.body.data.total).toBe(2);
    // The same shape (user id, offset) for another user answers that user's rows.
    const other = await log(`userId=${two.id}&pageSize=2`);
    expect(other.body.data.list.every((r) => r.userId === two.id)).toBe(true);
    expect(other.body.data.total).toBe(other.body.data.list.length);
    const single = await log(`userId=${one.id}&pageSize=1`);
    const next = await log(`userId=${one.id}&pageSize=1&cursor=${single.body.data.nextCursor}`);
    expect([...single.body.data.list, ...next.body.data.list].map((r) => r.id)).toEqual(first.body.data.list.map((r) => r.id));
    const at = Date.parse(first.body.data.list[1]!.at);
    const since = await log(`userId=${one.id}&from=${new Date(at + 1).toISOString()}`);
    expect(since.body.data.list.map((r) => r.id)).toEqual(first.body.data.list.filter((r) => Date.parse(r.at) > at).map((r) => r.id));
    // An id and the e-mail of another account match nothing.
    expect((await log(`userId=${one.id}&email=${encodeURIComponent(two.email)}`)).body.data).toMatchObject({ list: [], total: 0 });
  });

  it('counts users by country and city on both bases, equal to the seeded data', async () => {
    // Homes: 2 in NZ/Wellington, 1 in NZ/Auckland, 1 in CL/Santiago. Mowers: the two Wellington users' mowers
    // stand in Christchurch; the Santiago user shares one of them; the Auckland user has none.
    const w1 = await confirmedAppUser(server, admin, { country: 'NZ', city: 'Wellington' });
    const w2 = await confirmedAppUser(server, admin, { country: 'NZ', city: 'Wellington' });
    await confirmedAppUser(server, admin, { country: 'NZ', city: 'Auckland' });
    const s1 = await confirmedAppUser(server, admin, { country: 'CL', city: 'Santiago' });
    for (const owner of [w1, w2]) {
      const { sn, pairingCode } = await createModelAndSn(server, admin, newSn('GEO'), modelId);
      await server.api('POST', '/api/app/v1/devices/bind', { token: owner.token, body: { sn, pairingCode } });
      await server.ctx.db.update(deviceState).set({ lat: -43.5321, lng: 172.6362 }).where(eq(deviceState.sn, sn));
      if (owner === w1) await server.api('POST', `/api/app/v1/devices/${sn}/share`, { token: w1.token, body: { email: s1.email } });
    }
    const get = async <T>(path: string) => (await server.api<T>('GET', path, { token: operator })).body.data;

    const home = await get<CountryDistribution>('/api/admin/statistics/user-by-country?basis=home&limit=100');
    const nz = home.list.find((c) => c.country === 'NZ')!;
    expect(nz).toMatchObject({ count: 3, numeric: '554', name: { 'en-US': 'New Zealand', 'zh-CN': '新西兰' } });
    expect(nz.share).toBeCloseTo(3 / home.total, 3);
    expect(home.list.find((c) => c.country === 'CL')?.count).toBe(1);
    const homeCities = await get<CityDistribution>('/api/admin/statistics/user-by-city?basis=home&country=NZ');
    expect(homeCities.list.map((c) => [c.city, c.count])).toEqual([
      ['Wellington', 2],
      ['Auckland', 1],
    ]);
    expect(homeCities.total).toBe(3);

    const device = await get<CountryDistribution>('/api/admin/statistics/user-by-country?basis=device');
    expect(device.list.find((c) => c.country === 'NZ')?.count).toBe(3);
    expect(device.list.find((c) => c.country === 'CL')).toBeUndefined();
    const deviceCities = await get<CityDistribution>('/api/admin/statistics/user-by-city?basis=device&country=NZ&limit=1');
    expect(deviceCities.list).toEqual([expect.objectContaining({ country: 'NZ', city: 'Christchurch', count: 3 })]);
    expect(deviceCities.list[0]?.position?.lat).toBeCloseTo(-43.53, 1);
    expect((await server.api('GET', '/api/admin/statistics/user-by-city?basis=moon', { token: operator })).body.code).toBe(errors.VALIDATION.code);
    expect(await server.ctx.db.select().from(devices).where(and(eq(devices.owner, w1.email)))).toHaveLength(1);
  });
});
