import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceDetail, DevicePage, SnRecord } from '@mowerline/contract';
import type { TestServer } from '../harness.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../smtp.ts';
import { operatorToken } from '../devices/fixtures.ts';
import { confirmedAppUser, createModelAndSn, startEndUserServer } from './fixtures.ts';

const newSn = (prefix: string) => `${prefix}${randomBytes(4).toString('hex').toUpperCase()}`;

/** What staff see of a mower's app users: the device list's owner filter and the detail's owner and shared users. */
describe('device owner in the console: list filter by e-mail and detail with owner and shared users', () => {
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

  const ok = async <T>(res: Promise<{ body: { code: number; data: T } }>) => {
    const { body } = await res;
    expect(body.code, JSON.stringify(body)).toBe(0);
    return body.data;
  };
  const list = (query: string, token = operator) => ok(server.api<DevicePage>('GET', `/api/admin/device?${query}`, { token }));
  const detail = (sn: string, token = operator) => ok(server.api<DeviceDetail>('GET', `/api/admin/device/${sn}`, { token }));
  const app = (token: string, path: string, body?: unknown) => ok(server.api('POST', `/api/app/v1/devices${path}`, { token, body }));

  it('filters the device list by the owner’s e-mail in any case, and follows bind and unbind', async () => {
    const tag = randomBytes(3).toString('hex');
    // Mixed case on sign-up: the account (and so the owner column) keeps it lower-cased.
    const ann = await confirmedAppUser(server, admin, { email: `Ann.${tag}@Example.TEST`, name: 'Ann Owner' });
    const email = `ann.${tag}@example.test`;
    const [first, second, other] = [await createModelAndSn(server, admin, newSn('OWA'), modelId), await createModelAndSn(server, admin, newSn('OWB'), modelId), await createModelAndSn(server, admin, newSn('OWC'), modelId)];
    expect((await list(`owner=${encodeURIComponent(email)}`)).list).toEqual([]);

    await app(ann.token, '/bind', { sn: first.sn, pairingCode: first.pairingCode });
    await app(ann.token, '/bind', { sn: second.sn, pairingCode: second.pairingCode });
    for (const owner of [email, email.toUpperCase(), `Ann.${tag}@Example.TEST`]) {
      const page = await list(`owner=${encodeURIComponent(owner)}&pageSize=50`);
      expect(page.list.map((d) => d.sn), owner).toEqual([first.sn, second.sn].sort());
      expect(page).toMatchObject({ total: 2, totalExact: true });
      expect(page.list.every((d) => d.owner === email)).toBe(true);
    }
    // Combined with a filter on the live state (both tables read), and a different owner's mower absent.
    expect((await list(`owner=${encodeURIComponent(email)}&online=false&sn=OWA`)).list.map((d) => d.sn)).toEqual([first.sn]);
    expect((await list(`sn=${other.sn}`)).list[0]?.owner).toBe('');
    // The SN registry's list and the CSV export use the same filter.
    const sns = await ok(server.api<{ list: SnRecord[] }>('GET', `/api/admin/product/sn?owner=${encodeURIComponent(email.toUpperCase())}`, { token: admin }));
    expect(sns.list.map((s) => s.sn)).toEqual([first.sn, second.sn].sort());
    const csv = await (await fetch(`${server.url}/api/admin/device/export?owner=${encodeURIComponent(email.toUpperCase())}`, { headers: { authorization: `Bearer ${operator}` } })).text();
    expect(csv.trim().split('\r\n')).toHaveLength(3);

    await app(ann.token, `/${second.sn}/unbind`);
    expect((await list(`owner=${encodeURIComponent(email)}`)).list.map((d) => d.sn)).toEqual([first.sn]);
    expect((await list(`sn=${second.sn}`)).list[0]?.owner).toBe('');
  });

  it('shows the owner and the users the mower is shared with in the detail, and follows share, revoke and unbind', async () => {
    const ann = await confirmedAppUser(server, admin, { name: 'Ann Owner' });
    const zoe = await confirmedAppUser(server, admin, { email: `zoe.${randomBytes(3).toString('hex')}@example.test`, name: 'Zoe Shared' });
    const bob = await confirmedAppUser(server, admin, { email: `bob.${randomBytes(3).toString('hex')}@example.test`, name: 'Bob Shared' });
    const { sn, pairingCode } = await createModelAndSn(server, admin, newSn('DET'), modelId);

    expect(await detail(sn)).toMatchObject({ sn, owner: '', ownerUser: null, sharedUsers: [] });
    await app(ann.token, '/bind', { sn, pairingCode });
    await app(ann.token, `/${sn}/share`, { email: zoe.email });
    await app(ann.token, `/${sn}/share`, { email: bob.email });

    const shown = await detail(sn);
    expect(shown.owner).toBe(ann.email);
    expect(shown.ownerUser).toEqual({ id: ann.id, name: 'Ann Owner', email: ann.email, status: 'active', since: expect.any(String) });
    // By e-mail: Bob before Zoe.
    expect(shown.sharedUsers.map((u) => [u.id, u.name, u.email, u.status])).toEqual([
      [bob.id, 'Bob Shared', bob.email, 'active'],
      [zoe.id, 'Zoe Shared', zoe.email, 'active'],
    ]);
    expect(Date.parse(shown.sharedUsers[0]!.since)).toBeGreaterThanOrEqual(Date.parse(shown.ownerUser!.since));
    // Staff of every role read it (devices is every role's resource); a disabled account shows as such.
    expect((await detail(sn, admin)).sharedUsers).toHaveLength(2);
    await ok(server.api('POST', `/api/admin/end-user/${zoe.id}/disable`, { token: admin, body: { reason: 'support test' } }));
    expect((await detail(sn)).sharedUsers.find((u) => u.id === zoe.id)?.status).toBe('disabled');

    await app(ann.token, `/${sn}/revoke`, { email: bob.email });
    expect((await detail(sn)).sharedUsers.map((u) => u.email)).toEqual([zoe.email]);
    await app(ann.token, `/${sn}/unbind`);
    expect(await detail(sn)).toMatchObject({ owner: '', ownerUser: null, sharedUsers: [] });
  });

  it('keeps an owner staff typed by hand (no app account) in the list and the detail', async () => {
    const sn = newSn('HAND');
    await ok(server.api('POST', '/api/admin/product/sn', { token: admin, body: { sn, modelId, owner: 'Acme Gardens Ltd' } }));
    expect((await list('owner=acme%20gardens%20ltd')).list.map((d) => d.sn)).toEqual([sn]);
    expect(await detail(sn)).toMatchObject({ owner: 'Acme Gardens Ltd', ownerUser: null, sharedUsers: [] });
  });
});
