import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Campaign, CampaignPreview, DeviceGroup } from '@mowerline/contract';
import { deviceState } from '../../src/devices/devices.sql.ts';
import { otaJobs } from '../../src/ota/ota.sql.ts';
import type { TestServer } from '../harness.ts';
import { createCampaign, releasedFirmware, seedDevices, seedModel, startOtaServer } from '../ota/fixtures.ts';

/** OTA campaigns aimed at device groups: include and exclude, the preview equal to the jobs created, groups in use. */
describe('campaign targets by device group', () => {
  let server: TestServer;
  let removeDir: () => void;
  let token: string;
  let sns: string[];
  let artifactId: number;
  let beta: DeviceGroup;
  let demo: DeviceGroup;

  beforeAll(async () => {
    ({ server, removeDir } = await startOtaServer());
    token = await server.login();
    const model = await seedModel(server);
    ({ sns } = await seedDevices(server, model.id, 10, 'OTG'));
    // One mower is already on the new version: previews and campaigns skip it the same way.
    await server.ctx.db.insert(deviceState).values(sns.map((sn, i) => ({ sn, firmware: i === 3 ? '3.0.0' : '1.0.0' })));
    // Another model's mower in the beta ring: a campaign never sends it this model's firmware.
    const other = await seedModel(server);
    const { sns: foreign } = await seedDevices(server, other.id, 1, 'OTF');
    artifactId = await releasedFirmware(server, token, model.id, '3.0.0');
    await server.api('POST', '/api/admin/device/tags', { token, body: { sns: [...sns.slice(0, 6), ...foreign], set: { ring: 'beta' } } });
    const made = async (body: object) => (await server.api<DeviceGroup>('POST', '/api/admin/device-group', { token, body })).body.data;
    beta = await made({ name: 'Beta ring', kind: 'dynamic', filter: { tags: [{ key: 'ring', op: 'eq', value: 'beta' }] } });
    demo = await made({ name: 'Demo stock', kind: 'static', sns: [sns[4], sns[5], sns[9]] });
  });
  afterAll(async () => {
    await server.close();
    removeDir();
  });

  async function targeted(campaignId: number): Promise<string[]> {
    const rows = await server.ctx.db.select({ sn: otaJobs.sn }).from(otaJobs).where(eq(otaJobs.campaignId, campaignId));
    return rows.map((r) => r.sn).sort();
  }
  const preview = async (target: object) =>
    (await server.api<CampaignPreview>('POST', '/api/admin/ota/campaign/preview', { token, body: { name: 'p', artifactId, target } })).body;

  it('targets the groups minus the excluded groups; the preview total equals the jobs created', async () => {
    const target = { type: 'groups', groupIds: [beta.id], excludeGroupIds: [demo.id] };
    const p = await preview(target);
    expect(p.data).toMatchObject({ total: 4, willUpdate: 3, skipped: { ALREADY_CURRENT: 1 } });
    const c = await createCampaign(server, token, { artifactId, name: 'beta minus demo', target: target as Campaign['target'] });
    expect(c.total).toBe(p.data.total);
    expect(await targeted(c.id)).toEqual(sns.slice(0, 4));

    const union = { type: 'groups', groupIds: [beta.id, demo.id] };
    const u = await preview(union);
    const made = await createCampaign(server, token, { artifactId, name: 'beta and demo', target: union as Campaign['target'] });
    expect(made.total).toBe(u.data.total);
    expect(await targeted(made.id)).toEqual([...sns.slice(0, 6), sns[9]].sort());
  });

  it('excludeGroupIds works on model, filter and SN-list targets too', async () => {
    for (const [target, expected] of [
      [{ type: 'model', excludeGroupIds: [beta.id] }, sns.slice(6)],
      [{ type: 'filter', sn: 'OTG', excludeGroupIds: [demo.id] }, sns.filter((_, i) => ![4, 5, 9].includes(i))],
      [{ type: 'sns', sns: [sns[0], sns[4], sns[7]], excludeGroupIds: [demo.id, beta.id] }, [sns[7]]],
    ] as const) {
      const p = await preview(target);
      const c = await createCampaign(server, token, { artifactId, name: `exclude ${target.type}`, target: target as unknown as Campaign['target'] });
      expect(c.total).toBe(p.data.total);
      expect(await targeted(c.id)).toEqual([...expected].sort());
    }
  });

  it('dynamic membership is read when the campaign is created: a tag change shows in the next preview', async () => {
    const before = (await preview({ type: 'groups', groupIds: [beta.id] })).data.total;
    await server.api('POST', '/api/admin/device/tags', { token, body: { sns: [sns[8]], set: { ring: 'beta' } } });
    expect((await preview({ type: 'groups', groupIds: [beta.id] })).data.total).toBe(before + 1);
  });

  it('an unknown group is GROUP_NOT_FOUND; a group used by a running campaign cannot be deleted, naming the campaign', async () => {
    expect((await preview({ type: 'groups', groupIds: [987_654] })).code).toBe(49040);
    expect((await preview({ type: 'model', excludeGroupIds: [987_654] })).code).toBe(49040);
    const refused = await server.api('DELETE', `/api/admin/device-group/${demo.id}`, { token, lang: 'en-US' });
    expect(refused.body).toMatchObject({ code: 49044, msg: 'Group "Demo stock" is used by the running campaign "beta minus demo", "beta and demo", "exclude filter", "exclude sns" and cannot be deleted' });
    // Cancel every campaign naming the group: then it can go.
    const list = await server.api<{ list: Campaign[] }>('GET', '/api/admin/ota/campaign?pageSize=100', { token });
    for (const c of list.body.data.list.filter((c) => c.status === 'running' || c.status === 'paused')) {
      await server.api('POST', `/api/admin/ota/campaign/${c.id}/cancel`, { token });
    }
    expect((await server.api('DELETE', `/api/admin/device-group/${demo.id}`, { token })).body.code).toBe(0);
  });
});
