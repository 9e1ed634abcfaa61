import { createServer, type AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { OtaMower } from '../../../fleet-sim/src/ota-mower.ts';
import { buildApp, type BuiltApp } from '../../src/app.ts';
import { otaCampaigns, otaJobs } from '../../src/ota/ota.sql.ts';
import { createCampaign, releasedFirmware, seedDevices, seedModel, startMowers, startOtaServer, waitFor } from './fixtures.ts';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

describe('OTA across a server restart', () => {
  let mowers: OtaMower[] = [];
  let restarted: BuiltApp | undefined;
  let cleanup: () => Promise<void> = async () => {};

  afterAll(async () => {
    await Promise.all(mowers.map((m) => m.disconnect().catch(() => {})));
    await cleanup();
  });

  it('carries on after a restart mid-campaign: nobody upgraded twice, nobody forgotten', async () => {
    const mqttPort = await freePort();
    const { server, dataDir, removeDir } = await startOtaServer({ keepDatabase: true, config: { mqttPort } });
    const database = server.database;
    cleanup = async () => {
      await restarted?.app.close();
      await database.close();
      removeDir();
    };
    const token = await server.login();
    const model = await seedModel(server);
    const { sns, secret } = await seedDevices(server, model.id, 40);
    mowers = await startMowers(server, sns, secret, { knobs: () => ({ installMs: 1500 }) });
    const artifactId = await releasedFirmware(server, token, model.id, '4.0.0');
    const created = await createCampaign(server, token, { artifactId, phases: [50, 100], timeoutSeconds: 120 });
    const count = async (state: string) => (await server.ctx.db.select().from(otaJobs).where(eq(otaJobs.campaignId, created.id))).filter((j) => j.state === state).length;
    await waitFor(async () => (await count('INSTALLING')) >= 5, 30_000, 50);

    // Stop mid-install, with half the fleet still waiting for phase two; start again on the same ports.
    const httpPort = Number(new URL(server.url).port);
    await server.close();
    restarted = await buildApp({ ...server.config, dataDir }, database, { logger: false });
    await restarted.app.listen({ port: httpPort, host: '127.0.0.1' });

    const status = async () => (await restarted!.ctx.db.select().from(otaCampaigns).where(eq(otaCampaigns.id, created.id)))[0]!.status;
    await waitFor(async () => (await status()) === 'completed', 150_000, 250);
    const jobs = await restarted.ctx.db.select().from(otaJobs).where(eq(otaJobs.campaignId, created.id));
    expect(jobs.map((j) => j.state)).toEqual(Array(40).fill('SUCCESS'));
    expect(mowers.every((m) => m.firmware() === '4.0.0')).toBe(true);
    // Each mower installed the image exactly once.
    expect(mowers.map((m) => m.agent.installs)).toEqual(Array(40).fill(['4.0.0']));
  }, 240_000);
});
