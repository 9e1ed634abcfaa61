import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import type { Campaign, CampaignPreview } from '@mowerline/contract';
import { deviceState } from '../../src/devices/devices.sql.ts';
import { otaArtifacts } from '../../src/firmware/firmware.sql.ts';
import type { TestServer } from '../harness.ts';
import { campaign, createCampaign, firmwareImage, seedDevices, seedModel, startOtaServer, upload, waitFor } from './fixtures.ts';

/**
 * Issue 17, item 1: an inconsistent version range is refused at upload, a campaign says before it
 * is created how many devices it would skip and why, and one that updates nobody does not end as a
 * green "completed".
 */
describe('OTA status tells the truth', () => {
  let server: TestServer;
  let removeDir: () => void;
  let token: string;
  let model: { id: number; code: string };
  let sns: string[];

  beforeAll(async () => {
    ({ server, removeDir } = await startOtaServer());
    token = await server.login();
    model = await seedModel(server);
    ({ sns } = await seedDevices(server, model.id, 5, 'TRU'));
    // Offline mowers with known firmware: two on 1.0.0, two on 2.0.0, one already on 3.0.0.
    const firmware = ['1.0.0', '1.0.0', '2.0.0', '2.0.0', '3.0.0'];
    await server.ctx.db.insert(deviceState).values(sns.map((sn, i) => ({ sn, firmware: firmware[i]! })));
  });
  afterAll(async () => {
    await server.close();
    removeDir();
  });

  async function released(version: string, minFromVersion = ''): Promise<number> {
    const up = await upload(server, token, { modelId: String(model.id), version, minFromVersion }, { name: `fw-${version}.bin`, data: firmwareImage(4096) });
    expect(up.body.code).toBe(0);
    await server.api('PUT', `/api/admin/product/firmware/${up.body.data.id}`, { token, body: { status: 'released' } });
    return up.body.data.id;
  }

  it('refuses an "upgradable from" at or above the version itself, in both languages, and stores nothing', async () => {
    const rows = (await server.ctx.db.select().from(otaArtifacts)).length;
    const en = await upload(server, token, { modelId: String(model.id), version: '1.6.0', minFromVersion: '9.9.9' }, { name: 'fw.bin', data: firmwareImage(4096) });
    expect(en.status).toBe(400);
    expect(en.body).toMatchObject({ code: 43030, msg: '"Upgradable from" 9.9.9 is not below the version itself (1.6.0), so no device could ever be updated to it; nothing was stored' });
    const zh = await upload(server, token, { modelId: String(model.id), version: '1.6.0', minFromVersion: '1.6.0' }, { name: 'fw.bin', data: firmwareImage(4096) }, 'firmware', 'zh-CN');
    expect(zh.body).toMatchObject({ code: 43030, msg: '“可升级起始版本” 1.6.0 不低于本版本 1.6.0，没有设备能升级到它；未保存' });
    const malformed = await upload(server, token, { modelId: String(model.id), version: '1.6.0', minFromVersion: '1.x' }, { name: 'fw.bin', data: firmwareImage(4096) });
    expect(malformed.body).toMatchObject({ code: 43031, msg: 'The version "1.x" is malformed: use a semantic version such as 1.4.2; nothing was stored' });
    expect((await server.ctx.db.select().from(otaArtifacts)).length).toBe(rows);
  });

  it('refuses a current-version range whose start is above its end', async () => {
    const artifactId = await released('3.0.0');
    const res = await server.api('POST', '/api/admin/ota/campaign', {
      token,
      lang: 'en-US',
      body: { name: 'upside down', artifactId, target: { type: 'model', minVersion: '2.0.0', maxVersion: '1.0.0' } },
    });
    expect(res.body).toMatchObject({ code: 43032, msg: 'Invalid current-version range: from 2.0.0 is above up to 1.0.0' });
  });

  it('previews how many devices would be updated and how many skipped, by reason, creating nothing', async () => {
    const artifactId = (await server.ctx.db.select().from(otaArtifacts).where(inArray(otaArtifacts.version, ['3.0.0'])))[0]!.id;
    const withMin = await released('3.1.0', '2.0.0');
    const before = await server.api<{ total: number }>('GET', '/api/admin/ota/campaign', { token });
    const plain = await server.api<CampaignPreview>('POST', '/api/admin/ota/campaign/preview', { token, body: { name: 'x', artifactId, target: { type: 'model' } } });
    expect(plain.body.data).toEqual({ total: 5, willUpdate: 4, skipped: { ALREADY_CURRENT: 1 }, offline: 4 });
    const min = await server.api<CampaignPreview>('POST', '/api/admin/ota/campaign/preview', { token, body: { name: 'x', artifactId: withMin, target: { type: 'model' } } });
    expect(min.body.data).toEqual({ total: 5, willUpdate: 3, skipped: { BELOW_MIN_VERSION: 2 }, offline: 3 });
    const none = await server.api<CampaignPreview>('POST', '/api/admin/ota/campaign/preview', {
      token,
      body: { name: 'x', artifactId: withMin, target: { type: 'filter', firmware: '9.0.0' } },
    });
    expect(none.body.data).toEqual({ total: 0, willUpdate: 0, skipped: {}, offline: 0 });
    expect((await server.api<{ total: number }>('GET', '/api/admin/ota/campaign', { token })).body.data.total).toBe(before.body.data.total);
  });

  it('a campaign that updates nobody ends as "completed_none" at its last phase, with its counts', async () => {
    const artifactId = await released('4.0.0', '3.0.0');
    // Only the 1.0.0 and 2.0.0 mowers: all of them below the minimum.
    const created = await createCampaign(server, token, { artifactId, name: 'nobody', target: { type: 'sns', sns: sns.slice(0, 4) }, phases: [10, 50, 100] });
    expect(created.counts).toEqual({ SKIPPED: 4 });
    await waitFor(async () => (await campaign(server, token, created.id)).status !== 'running', 20_000, 100);
    const done: Campaign = await campaign(server, token, created.id);
    expect(done).toMatchObject({ status: 'completed_none', phaseIndex: 2, counts: { SKIPPED: 4 }, waiting: null });
    const listed = await server.api<{ list: Campaign[] }>('GET', '/api/admin/ota/campaign?status=completed_none', { token });
    expect(listed.body.data.list.map((c) => c.id)).toContain(created.id);
  });
});
