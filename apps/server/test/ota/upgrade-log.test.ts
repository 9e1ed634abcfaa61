import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { OtaMower } from '../../../fleet-sim/src/ota-mower.ts';
import type { AppLatest, UpgradeRecord } from '@mowerline/contract';
import { systemLogs } from '../../src/system-log/system-log.sql.ts';
import type { TestServer } from '../harness.ts';
import { staffSession } from '../staff/fixtures.ts';
import { campaign, createCampaign, firmwareImage, releasedFirmware, seedDevices, seedModel, startMowers, startOtaServer, upload, waitFor } from './fixtures.ts';

const EN = 'en-US';

describe('upgrade log, voice packs, app versions and permissions', () => {
  let server: TestServer;
  let removeDir: () => void;
  let token: string;
  let mowers: OtaMower[] = [];
  let sns: string[];
  let campaignId: number;
  let modelId: number;

  beforeAll(async () => {
    ({ server, removeDir } = await startOtaServer());
    token = await server.login();
    const model = await seedModel(server);
    modelId = model.id;
    const seeded = await seedDevices(server, model.id, 4);
    sns = seeded.sns;
    mowers = await startMowers(server, sns, seeded.secret, { knobs: (_sn, i) => ({ failInstall: i === 0 }) });
    const artifactId = await releasedFirmware(server, token, model.id, '5.0.0');
    campaignId = (await createCampaign(server, token, { artifactId, name: 'May rollout', phases: [100] })).id;
    // One of the four fails its install: the campaign ends "with failures".
    await waitFor(async () => (await campaign(server, token, campaignId)).status === 'completed_with_failures', 60_000, 200);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(mowers.map((m) => m.disconnect().catch(() => {})));
    await server.close();
    removeDir();
  });

  it('lists one record per device per campaign with every state and its time, filtered', async () => {
    const all = await server.api<{ list: UpgradeRecord[]; total: number }>('GET', `/api/admin/device/upgrade-log?campaignId=${campaignId}`, { token });
    expect(all.body.data.total).toBe(4);
    const failed = await server.api<{ list: UpgradeRecord[]; total: number }>('GET', `/api/admin/device/upgrade-log?campaignId=${campaignId}&state=FAILED`, { token });
    expect(failed.body.data.total).toBe(1);
    expect(failed.body.data.list[0]).toMatchObject({ sn: sns[0], fromVersion: '1.0.0', toVersion: '5.0.0', reason: 'INSTALL_FAILED', retries: 0, campaignName: 'May rollout', kind: 'firmware' });
    const ok = all.body.data.list.find((r) => r.state === 'SUCCESS')!;
    expect(ok.history.map((h) => h.state)).toEqual(['QUEUED', 'SENT', 'DOWNLOADING', 'DOWNLOADED', 'VERIFIED', 'INSTALLING', 'SUCCESS']);
    expect(ok.history.every((h) => !Number.isNaN(Date.parse(h.at)))).toBe(true);
    const bySn = await server.api<{ list: UpgradeRecord[]; total: number }>('GET', `/api/admin/device/upgrade-log?sn=${sns[1]}`, { token });
    expect(bySn.body.data.list.map((r) => r.sn)).toEqual([sns[1]]);
    const bad = await server.api('GET', '/api/admin/device/upgrade-log?state=DONE', { token, lang: EN });
    expect(bad.body).toMatchObject({ code: 40000 });
  });

  it('exports the filtered log as CSV and audits the export', async () => {
    const res = await fetch(`${server.url}/api/admin/device/upgrade-log/export?campaignId=${campaignId}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.headers.get('content-type')).toContain('text/csv');
    const lines = (await res.text()).replace(/^\uFEFF/, '').trim().split('\n');
    expect(lines[0]).toBe('sn,campaign_id,campaign,kind,from_version,to_version,state,reason,retries,updated_at,finished_at,history');
    expect(lines).toHaveLength(5);
    expect(lines.find((l) => l.startsWith(sns[0]!))).toContain('INSTALL_FAILED');
    // A streamed answer is audited once the stream has ended, which may be just after the client read it.
    const audited = async () => (await server.ctx.db.select().from(systemLogs).where(eq(systemLogs.action, 'ota.upgrade-log.export')))[0];
    await waitFor(async () => (await audited()) !== undefined, 5_000);
    expect(await audited()).toMatchObject({ result: 'success' });
  });

  it("shows a device's upgrade history", async () => {
    const res = await server.api<UpgradeRecord[]>('GET', `/api/admin/device/${sns[2]}/upgrade-history`, { token });
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({ campaignId, state: 'SUCCESS', toVersion: '5.0.0' });
    const unknown = await server.api('GET', '/api/admin/device/NOPE0000/upgrade-history', { token, lang: EN });
    expect(unknown.body).toMatchObject({ code: 42003, msg: 'Serial number NOPE0000 is not registered' });
  });

  it('rolls a voice pack out through the same campaign machinery', async () => {
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), firmwareImage(4000)]);
    const up = await upload(server, token, { modelId: String(modelId), version: '1.2.0', language: 'en-US', changelogEn: 'New voice' }, { name: 'voice-en.zip', data: zip }, 'voice');
    expect(up.body.code).toBe(0);
    await server.api('PUT', `/api/admin/product/voice/${up.body.data.id}`, { token, body: { status: 'released' } });
    const created = await createCampaign(server, token, { artifactId: up.body.data.id, target: { type: 'sns', sns: sns.slice(1, 3) }, phases: [100] });
    expect(created).toMatchObject({ kind: 'voice', total: 2 });
    await waitFor(async () => (await campaign(server, token, created.id)).status === 'completed', 60_000, 200);
    expect((await campaign(server, token, created.id)).counts).toEqual({ SUCCESS: 2 });
    expect(mowers[1]!.agent.flash.voice['en-US']).toBe('1.2.0');
    const bad = await server.api('POST', '/api/admin/ota/campaign', { token, lang: EN, body: { name: 'x', artifactId: up.body.data.id, target: { type: 'sns', sns: ['ZZZZ0001'] } } });
    expect(bad.body).toMatchObject({ code: 43012, msg: '1 serial numbers are unknown or of another model; nothing was created', data: { unknown: ['ZZZZ0001'] } });
  }, 90_000);

  it('refuses to roll out a draft and keeps writes admin-only', async () => {
    const draft = await upload(server, token, { modelId: String(modelId), version: '6.0.0' }, { name: 'fw.bin', data: firmwareImage(2000) });
    const res = await server.api('POST', '/api/admin/ota/campaign', { token, lang: EN, body: { name: 'x', artifactId: draft.body.data.id, target: { type: 'model' } } });
    expect(res.body).toMatchObject({ code: 43007 });
    const operator = await staffSession(server, token, 'otaoperator');
    expect((await server.api('GET', `/api/admin/ota/campaign/${campaignId}`, { token: operator.token })).body.code).toBe(0);
    expect((await server.api('POST', `/api/admin/ota/campaign/${campaignId}/pause`, { token: operator.token })).status).toBe(403);
    const opUpload = await upload(server, operator.token, { modelId: String(modelId), version: '6.0.1' }, { name: 'fw.bin', data: firmwareImage(2000) });
    expect(opUpload.status).toBe(403);
  });

  it('tells the app whether to update, without sign-in', async () => {
    const add = (body: Record<string, unknown>) => server.api('POST', '/api/admin/product/app-version', { token, body: { platform: 'android', changelogZh: '更新', changelogEn: 'Update', ...body } });
    expect((await add({ version: '2.0.0', build: 200, minSupportedVersion: '1.5.0' })).body.code).toBe(0);
    expect((await add({ version: '2.1.0', build: 210 })).body.code).toBe(0);
    expect((await add({ version: '2.1.0', build: 210 })).body).toMatchObject({ code: 43014 });
    const latest = (version: string, lang = EN) => server.api<AppLatest>('GET', `/api/app/v1/app-version/latest?platform=android&version=${version}`, { lang });
    expect((await latest('2.1.0')).body.data).toMatchObject({ updateAvailable: false, forceUpdate: false });
    expect((await latest('2.0.0')).body.data).toMatchObject({ updateAvailable: true, forceUpdate: false, changelog: 'Update', latest: { version: '2.1.0', build: 210 } });
    expect((await latest('1.4.0', 'zh-CN')).body.data).toMatchObject({ updateAvailable: true, forceUpdate: false, changelog: '更新' });
    // The minimum supported version belongs to the newest release; set it there to force old apps.
    const list = await server.api<{ list: Array<{ id: number; build: number }> }>('GET', '/api/admin/product/app-version?platform=android', { token });
    const newest = list.body.data.list.find((v) => v.build === 210)!;
    await server.api('PUT', `/api/admin/product/app-version/${newest.id}`, { token, body: { minSupportedVersion: '1.5.0' } });
    expect((await latest('1.4.0')).body.data.forceUpdate).toBe(true);
    expect((await latest('1.6.0')).body.data.forceUpdate).toBe(false);
    expect((await server.api<AppLatest>('GET', '/api/app/v1/app-version/latest?platform=ios&version=1.0.0')).body.data).toMatchObject({ latest: null, updateAvailable: false });
    const logs = await server.ctx.db.select().from(systemLogs).where(eq(systemLogs.action, 'app-version.update'));
    expect(logs).toHaveLength(1);
  });
});
