import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import type { BulkRowError, DeviceDetail, DeviceGroup, DevicePage, DeviceTagsResult, GroupMembersResult } from '@mowerline/contract';
import { deviceState, devices } from '../../src/devices/devices.sql.ts';
import { deviceTags } from '../../src/device-groups/device-groups.sql.ts';
import { systemLogs } from '../../src/system-log/system-log.sql.ts';
import type { TestServer } from '../harness.ts';
import { seedDevices, seedModel, startOtaServer } from '../ota/fixtures.ts';

/** Staff tags and device groups: bulk tagging with per-row errors, the list's tag and group filters, static and dynamic groups. */
describe('device tags and groups', () => {
  let server: TestServer;
  let removeDir: () => void;
  let token: string;
  let sns: string[];

  beforeAll(async () => {
    ({ server, removeDir } = await startOtaServer());
    token = await server.login();
    const model = await seedModel(server);
    ({ sns } = await seedDevices(server, model.id, 8, 'GRP'));
    await server.ctx.db.insert(deviceState).values(sns.map((sn, i) => ({ sn, firmware: i < 4 ? '1.0.0' : '2.0.0' })));
    await server.ctx.db.update(devices).set({ region: 'nordic' }).where(inArray(devices.sn, sns.slice(0, 6)));
  });
  afterAll(async () => {
    await server.close();
    removeDir();
  });

  const list = async (query: string) => (await server.api<DevicePage>('GET', `/api/admin/device?pageSize=100&${query}`, { token })).body;
  const snsOf = (page: { data: DevicePage }) => page.data.list.map((d) => d.sn);
  const tag = async (body: object) => server.api<DeviceTagsResult>('POST', '/api/admin/device/tags', { token, body, lang: 'en-US' });
  const audits = async (action: string) => server.ctx.db.select().from(systemLogs).where(eq(systemLogs.action, action));

  it('tags a selection in bulk: unknown, repeated and malformed SNs are reported per row, the valid rows applied and audited', async () => {
    const res = await tag({ sns: [sns[0], sns[1], 'NOPE-0001', sns[0], 'bad sn!', sns[2]], set: { ring: 'beta', site: 'golf-7' } });
    expect(res.body.code).toBe(0);
    expect(res.body.data.devices).toBe(3);
    expect(res.body.data.errorCount).toBe(3);
    expect(res.body.data.errors).toEqual<BulkRowError[]>([
      { row: 3, sn: 'NOPE-0001', reason: 'unknown' },
      { row: 4, sn: sns[0]!, reason: 'duplicate' },
      { row: 5, sn: 'BAD SN!', reason: 'invalid' },
    ]);
    const rows = await server.ctx.db.select().from(deviceTags).where(and(eq(deviceTags.key, 'ring'), inArray(deviceTags.sn, sns)));
    expect(rows.map((r) => r.sn).sort()).toEqual(sns.slice(0, 3));
    const [audit] = await audits('device.tags.update');
    expect(audit).toMatchObject({ result: 'success', targetType: 'device' });
    expect(audit!.detail).toMatchObject({ devices: 3, errorCount: 3, set: { ring: 'beta', site: 'golf-7' } });

    const detail = await server.api<DeviceDetail>('GET', `/api/admin/device/${sns[0]}`, { token });
    expect(detail.body.data.tags).toEqual({ ring: 'beta', site: 'golf-7' });
    expect(detail.body.data.attributes).toEqual({});
  });

  it('filters the list by tag (value or presence, repeatable, all must hold); unknown keys match nothing', async () => {
    await tag({ sns: [sns[1]], set: { site: 'golf-8' } });
    expect(snsOf(await list('tag=ring:beta'))).toEqual(sns.slice(0, 3));
    expect(snsOf(await list('tag=ring:beta&tag=site:golf-7'))).toEqual([sns[0], sns[2]]);
    expect(snsOf(await list('tag=site'))).toEqual(sns.slice(0, 3));
    const unknown = await list('tag=no-such-key:x');
    expect(unknown).toMatchObject({ code: 0, data: { list: [], total: 0 } });
    expect((await list('tag=Weird%20Key')).data.total).toBe(0);
    // The list shows each device's tags.
    const page = await list(`sn=${sns[1]}`);
    expect(page.data.list[0]?.tags).toEqual({ ring: 'beta', site: 'golf-8' });
  });

  it('refuses bad tag input: upper-case or long keys, long values, a key both set and removed, no target', async () => {
    expect((await tag({ sns: [sns[0]], set: { Ring: 'x' } })).body.code).toBe(40000);
    expect((await tag({ sns: [sns[0]], set: { ['k'.repeat(64)]: 'x' } })).body.code).toBe(40000);
    expect((await tag({ sns: [sns[0]], set: { ring: 'v'.repeat(129) } })).body.code).toBe(40000);
    expect((await tag({ sns: [sns[0]], set: { ring: 'a\u0000b' } })).body.code).toBe(40001);
    expect((await tag({ sns: [sns[0]], set: { ring: 'x' }, remove: ['ring'] })).body.code).toBe(49046);
    expect((await tag({ set: { ring: 'x' } })).body.code).toBe(49045);
    expect((await tag({ filter: {}, set: { ring: 'x' } })).body.code).toBe(49042);
    expect((await list('tag=')).code).toBe(40000);
  });

  it('tags every device a filter matches in one call, and removes tags the same way', async () => {
    const res = await tag({ filter: { region: 'nordic', firmware: '2.0.0' }, set: { dealer: 'nordic-garden' } });
    expect(res.body.data).toMatchObject({ devices: 2, errorCount: 0 });
    expect(snsOf(await list('tag=dealer:nordic-garden'))).toEqual([sns[4], sns[5]]);
    await tag({ filter: { tags: [{ key: 'dealer', op: 'exists' }] }, remove: ['dealer'] });
    expect((await list('tag=dealer')).data.total).toBe(0);
  });

  it('a dynamic group follows tag and state changes; its filter needs all: true to match everything', async () => {
    const everything = await server.api('POST', '/api/admin/device-group', { token, body: { name: 'Everyone?', kind: 'dynamic', filter: {} } });
    expect(everything.body.code).toBe(49042);
    const res = await server.api<DeviceGroup>('POST', '/api/admin/device-group', {
      token,
      body: { name: 'Beta testers', description: 'ring beta, online or not', kind: 'dynamic', filter: { region: 'nordic', tags: [{ key: 'ring', op: 'in', values: ['beta', 'alpha'] }] } },
    });
    expect(res.body.code).toBe(0);
    const group = res.body.data;
    expect(group).toMatchObject({ kind: 'dynamic', memberCount: 3, memberCountExact: true });
    const members = async (query = '') => snsOf((await server.api<DevicePage>('GET', `/api/admin/device-group/${group.id}/devices?pageSize=100${query}`, { token })).body);
    expect(await members()).toEqual(sns.slice(0, 3));

    await tag({ sns: [sns[5]], set: { ring: 'alpha' } });
    await tag({ sns: [sns[0]], remove: ['ring'] });
    expect(await members()).toEqual([sns[1], sns[2], sns[5]]);
    // A state change: the group's filter and the page's own filters both hold.
    await server.ctx.db.update(deviceState).set({ online: true }).where(eq(deviceState.sn, sns[2]!));
    expect(await members('&online=true')).toEqual([sns[2]]);
    expect(snsOf(await list(`groupId=${group.id}&firmware=2.0.0`))).toEqual([sns[5]]);
    // Contradicting filters match nothing.
    expect((await list(`groupId=${group.id}&region=elsewhere`)).data.total).toBe(0);

    const neq = await server.api<DeviceGroup>('POST', '/api/admin/device-group', {
      token,
      body: { name: 'Not alpha', kind: 'dynamic', filter: { tags: [{ key: 'ring', op: 'neq', value: 'alpha' }] } },
    });
    expect(neq.body.data.memberCount).toBe(2);
    const created = await audits('device.group.create');
    expect(created.find((a) => a.targetName === 'Everyone?')).toMatchObject({ result: 'failure', targetType: 'deviceGroup' });
    expect(created.find((a) => a.targetName === 'Beta testers')).toMatchObject({ result: 'success', targetId: String(group.id) });
  });

  it('a static group: members added and removed with per-row errors, listed, exported as CSV; a name is unique', async () => {
    const res = await server.api<DeviceGroup & { members: GroupMembersResult }>('POST', '/api/admin/device-group', {
      token,
      body: { name: 'Demo stock', kind: 'static', sns: [sns[6], sns[7], sns[7], 'GHOST-01'] },
    });
    expect(res.body.data).toMatchObject({ kind: 'static', memberCount: 2, members: { added: 2, errorCount: 2 } });
    const id = res.body.data.id;
    const change = await server.api<GroupMembersResult>('POST', `/api/admin/device-group/${id}/members`, {
      token,
      body: { add: [sns[0], 'GHOST-02'], remove: [sns[7]] },
    });
    expect(change.body.data).toEqual({ added: 1, removed: 1, memberCount: 2, errorCount: 1, errors: [{ row: 2, sn: 'GHOST-02', reason: 'unknown' }] });
    expect(snsOf(await list(`groupId=${id}`))).toEqual([sns[0], sns[6]]);
    const csv = await fetch(`${server.url}/api/admin/device/export?groupId=${id}`, { headers: { authorization: `Bearer ${token}` } });
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual([sns[0], sns[6]]);

    const taken = await server.api('POST', '/api/admin/device-group', { token, lang: 'en-US', body: { name: 'demo STOCK', kind: 'static' } });
    expect(taken.body).toMatchObject({ code: 49041, msg: 'A group named "demo STOCK" already exists' });
    const mismatch = await server.api('POST', '/api/admin/device-group', { token, body: { name: 'x', kind: 'static', filter: { region: 'nordic' } } });
    expect(mismatch.body.code).toBe(49043);
    const dynamicMembers = await server.api('POST', `/api/admin/device-group/999999/members`, { token, body: { add: [sns[0]] } });
    expect(dynamicMembers.body.code).toBe(49040);
    expect((await list('groupId=999999')).code).toBe(49040);

    const renamed = await server.api<DeviceGroup>('PUT', `/api/admin/device-group/${id}`, { token, body: { name: 'Dealer demo stock', description: 'in the showroom' } });
    expect(renamed.body.data).toMatchObject({ name: 'Dealer demo stock', description: 'in the showroom', memberCount: 2 });
    const groups = await server.api<{ list: DeviceGroup[]; total: number }>('GET', '/api/admin/device-group?name=demo', { token });
    expect(groups.body.data.list.map((g) => g.name)).toEqual(['Dealer demo stock']);
    const removed = await server.api<DeviceGroup>('DELETE', `/api/admin/device-group/${id}`, { token });
    expect(removed.body.code).toBe(0);
    expect((await server.api('GET', `/api/admin/device-group/${id}`, { token })).body.code).toBe(49040);
    const [deleted] = await audits('device.group.delete');
    expect(deleted).toMatchObject({ result: 'success', targetName: 'Dealer demo stock' });
  });
});
