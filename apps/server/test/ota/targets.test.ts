import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { deviceState, devices } from '../../src/devices/devices.sql.ts';
import { otaCampaigns, otaJobs } from '../../src/ota/ota.sql.ts';
import type { TestServer } from '../harness.ts';
import { createCampaign, releasedFirmware, seedDevices, seedModel, startOtaServer } from './fixtures.ts';

/** Which devices a campaign targets, decided at creation: by filter, by model and version range. */
describe('campaign targets', () => {
  let server: TestServer;
  let removeDir: () => void;
  let token: string;
  let modelId: number;
  let sns: string[];
  let artifactId: number;

  beforeAll(async () => {
    ({ server, removeDir } = await startOtaServer());
    token = await server.login();
    modelId = (await seedModel(server)).id;
    ({ sns } = await seedDevices(server, modelId, 6, 'TGT'));
    // Two gardens in Berlin (one owned by alice), the rest in Tokyo; firmware 1.0.0, 1.5.0 or 2.0.0.
    const db = server.ctx.db;
    await db.update(devices).set({ region: 'eu-berlin' }).where(inArray(devices.sn, sns.slice(0, 2)));
    await db.update(devices).set({ owner: 'alice' }).where(eq(devices.sn, sns[0]!));
    await db.update(devices).set({ region: 'ap-tokyo' }).where(inArray(devices.sn, sns.slice(2)));
    const firmware = ['1.0.0', '1.5.0', '1.0.0', '1.5.0', '2.0.0', '1.0.0'];
    await db.insert(deviceState).values(sns.map((sn, i) => ({ sn, firmware: firmware[i]! })));
    // Offline mowers: jobs are queued and wait, so the targets can be read from the job rows.
    artifactId = await releasedFirmware(server, token, modelId, '3.0.0');
  });
  afterAll(async () => {
    await server.close();
    removeDir();
  });

  async function targeted(campaignId: number): Promise<string[]> {
    const rows = await server.ctx.db.select({ sn: otaJobs.sn }).from(otaJobs).where(eq(otaJobs.campaignId, campaignId));
    return rows.map((r) => r.sn).sort();
  }

  it('a device-list filter picks by region, owner, SN prefix and firmware', async () => {
    const byRegion = await createCampaign(server, token, { artifactId, name: 'Berlin', target: { type: 'filter', region: 'eu-berlin' } });
    expect(byRegion.total).toBe(2);
    expect(await targeted(byRegion.id)).toEqual(sns.slice(0, 2));

    const byOwner = await createCampaign(server, token, { artifactId, name: 'Alice', target: { type: 'filter', owner: 'alice' } });
    expect(await targeted(byOwner.id)).toEqual([sns[0]]);

    const byFirmware = await createCampaign(server, token, { artifactId, name: 'Tokyo 1.0', target: { type: 'filter', region: 'ap-tokyo', firmware: '1.0.0' } });
    expect(await targeted(byFirmware.id)).toEqual([sns[2], sns[5]]);

    const byPrefix = await createCampaign(server, token, { artifactId, name: 'Prefix', target: { type: 'filter', sn: sns[4]!.slice(0, -1) } });
    expect(await targeted(byPrefix.id)).toContain(sns[4]);
  });

  it('a model target with a version range takes only the devices inside it', async () => {
    const ranged = await createCampaign(server, token, { artifactId, name: '1.x', target: { type: 'model', minVersion: '1.0.0', maxVersion: '1.5.0' } });
    expect(await targeted(ranged.id)).toEqual([sns[0], sns[1], sns[2], sns[3], sns[5]].sort());
  });

  it('a version range leaves out mowers of unknown version; the rollout order is a permutation of the targets', async () => {
    // One mower reported no version (''), one never reported at all (no state row).
    const { sns: unknown } = await seedDevices(server, modelId, 2, 'TGU');
    await server.ctx.db.insert(deviceState).values({ sn: unknown[0]!, firmware: '' });
    const ranged = await createCampaign(server, token, { artifactId, name: 'up to 9', target: { type: 'model', maxVersion: '9.0.0' } });
    expect(await targeted(ranged.id)).toEqual([...sns].sort());
    const whole = await createCampaign(server, token, { artifactId, name: 'whole model', target: { type: 'model' } });
    expect(await targeted(whole.id)).toEqual([...sns, ...unknown].sort());
    const ordinals = await server.ctx.db.select({ ordinal: otaJobs.ordinal }).from(otaJobs).where(eq(otaJobs.campaignId, whole.id));
    expect(ordinals.map((r) => r.ordinal).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('an SN list with unknown or other-model SNs is refused, naming both kinds in list order', async () => {
    const other = await seedModel(server);
    const { sns: foreign } = await seedDevices(server, other.id, 1, 'TGF');
    const body = { name: 'list', artifactId, target: { type: 'sns', sns: [sns[0], 'NOPE0002', foreign[0], 'NOPE0001', sns[1]] } };
    for (const path of ['/api/admin/ota/campaign', '/api/admin/ota/campaign/preview']) {
      const res = await server.api<{ unknown: string[]; otherModel: string[] }>('POST', path, { token, body, lang: 'en-US' });
      expect(res.body).toMatchObject({ code: 43012, msg: '3 serial numbers are unknown or of another model; nothing was created' });
      expect(res.body.data).toEqual({ unknown: ['NOPE0002', 'NOPE0001'], otherModel: foreign });
    }
  });

  it('a target without devices is refused and leaves no campaign behind', async () => {
    const count = async () => (await server.ctx.db.select({ id: otaCampaigns.id }).from(otaCampaigns)).length;
    const before = await count();
    const res = await server.api('POST', '/api/admin/ota/campaign', { token, lang: 'en-US', body: { name: 'nobody', artifactId, target: { type: 'filter', firmware: '9.9.9' } } });
    expect(res.body).toMatchObject({ code: 43011, msg: 'No device matches the target' });
    expect(await count()).toBe(before);
  });

  it('a newer version supersedes the queued jobs of its mowers in older campaigns; an older one supersedes nothing', async () => {
    const queuedOf = async (sn: string) =>
      (await server.ctx.db.select({ state: otaJobs.state, reason: otaJobs.reason }).from(otaJobs).where(and(eq(otaJobs.sn, sn), eq(otaJobs.toVersion, '3.0.0')))).map(
        (r) => `${r.state} ${r.reason}`,
      );
    expect(new Set(await queuedOf(sns[0]!))).toEqual(new Set(['QUEUED ']));
    const newer = await releasedFirmware(server, token, modelId, '3.1.0');
    await createCampaign(server, token, { artifactId: newer, name: 'newer', target: { type: 'sns', sns: [sns[0]!, sns[1]!] } });
    expect(new Set(await queuedOf(sns[0]!))).toEqual(new Set(['CANCELLED SUPERSEDED']));
    expect(new Set(await queuedOf(sns[1]!))).toEqual(new Set(['CANCELLED SUPERSEDED']));
    expect(new Set(await queuedOf(sns[2]!))).toEqual(new Set(['QUEUED ']));
    const older = await releasedFirmware(server, token, modelId, '2.5.0');
    await createCampaign(server, token, { artifactId: older, name: 'older', target: { type: 'sns', sns: [sns[2]!] } });
    expect(new Set(await queuedOf(sns[2]!))).toEqual(new Set(['QUEUED ']));
  });
});
