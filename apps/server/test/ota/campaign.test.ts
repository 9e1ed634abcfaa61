import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { OtaMower } from '../../../fleet-sim/src/ota-mower.ts';
import { otaJobs } from '../../src/ota/ota.sql.ts';
import { systemLogs } from '../../src/system-log/system-log.sql.ts';
import type { TestServer } from '../harness.ts';
import { campaign, createCampaign, releasedFirmware, seedDevices, seedModel, startMowers, startOtaServer, waitFor } from './fixtures.ts';

describe('OTA campaign over the real broker', () => {
  let server: TestServer;
  let removeDir: () => void;
  let token: string;
  let mowers: OtaMower[] = [];

  beforeAll(async () => {
    ({ server, removeDir } = await startOtaServer());
    token = await server.login();
  });
  afterAll(async () => {
    await Promise.all(mowers.map((m) => m.disconnect().catch(() => {})));
    await server.close();
    removeDir();
  });

  it('upgrades 200 mowers in phases: every one reaches SUCCESS and reboots into the new version', async () => {
    const model = await seedModel(server);
    const { sns, secret } = await seedDevices(server, model.id, 200);
    mowers = await startMowers(server, sns, secret, { firmware: '1.0.0' });
    const artifactId = await releasedFirmware(server, token, model.id, '1.1.0');
    const created = await createCampaign(server, token, { artifactId, phases: [1, 10, 50, 100] });
    expect(created).toMatchObject({ total: 200, status: 'running', counts: { QUEUED: 200 } });

    await waitFor(async () => (await campaign(server, token, created.id)).status === 'completed', 120_000, 250);
    const done = await campaign(server, token, created.id);
    expect(done.counts).toEqual({ SUCCESS: 200 });
    expect(done.phaseIndex).toBe(3);
    expect(mowers.every((m) => m.firmware() === '1.1.0')).toBe(true);
    // Each mower downloaded the image exactly once and was upgraded once.
    expect(mowers.every((m) => m.agent.downloads.length === 1)).toBe(true);
    const jobs = await server.ctx.db.select().from(otaJobs).where(eq(otaJobs.campaignId, created.id));
    const states = jobs[0]!.history.map((h) => h.state);
    expect(states).toEqual(['QUEUED', 'SENT', 'DOWNLOADING', 'DOWNLOADED', 'VERIFIED', 'INSTALLING', 'SUCCESS']);
    expect(jobs.every((j) => j.attempt === 0 && j.fromVersion === '1.0.0' && j.toVersion === '1.1.0')).toBe(true);
    const [audit] = await server.ctx.db.select().from(systemLogs).where(eq(systemLogs.action, 'ota.campaign.create'));
    expect(audit).toMatchObject({ result: 'success', targetType: 'campaign' });
  }, 180_000);
});
