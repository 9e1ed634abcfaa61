import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { deviceState, devices } from '../../src/devices/devices.sql.ts';
import { otaJobs } from '../../src/ota/ota.sql.ts';
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
});
