import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { OtaMower } from '../../../fleet-sim/src/ota-mower.ts';
import { otaJobs, type OtaJobRow } from '../../src/ota/ota.sql.ts';
import { rateBudget } from '../../src/ota/engine.ts';
import type { TestServer } from '../harness.ts';
import { campaign, createCampaign, releasedFirmware, seedDevices, seedModel, startMowers, startOtaServer, waitFor } from './fixtures.ts';

/** When each job was sent to its device (its first SENT entry). */
function sentTimes(jobs: OtaJobRow[]): number[] {
  return jobs.map((j) => Date.parse(j.history.find((h) => h.state === 'SENT')!.at)).sort((a, b) => a - b);
}

/** The most sends inside any window of `ms` (a window is half-open: [t, t + ms)). */
function mostInWindow(times: number[], ms: number): number {
  let most = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= ms) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe('rate budget', () => {
  it('spreads a per-minute limit over the minute: ceil(limit / 60) a second, the limit a minute', () => {
    expect(rateBudget(60, 0, 0)).toBe(1);
    expect(rateBudget(60, 1, 1)).toBe(0);
    expect(rateBudget(120, 1, 30)).toBe(1);
    expect(rateBudget(10, 0, 10)).toBe(0);
    expect(rateBudget(10_000, 0, 9_990)).toBe(10);
    expect(rateBudget(6000, 40, 500)).toBe(60);
  });
});

/** Issue 17, item 2: the rate limit holds at every scale; phases soak and need their success share. */
describe('OTA rollout limits over the real broker', () => {
  let server: TestServer;
  let removeDir: () => void;
  let token: string;
  const fleet: OtaMower[] = [];

  beforeAll(async () => {
    ({ server, removeDir } = await startOtaServer());
    token = await server.login();
  });
  afterAll(async () => {
    await Promise.all(fleet.map((m) => m.disconnect().catch(() => {})));
    await server.close();
    removeDir();
  });

  async function fleetOf(count: number) {
    const model = await seedModel(server);
    const { sns, secret } = await seedDevices(server, model.id, count);
    const mowers = await startMowers(server, sns, secret);
    fleet.push(...mowers);
    return { model, mowers };
  }
  const jobsOf = (id: number) => server.ctx.db.select().from(otaJobs).where(eq(otaJobs.campaignId, id));

  it('sends at most ceil(rate / 60) jobs in any second: 120/min to 6 online mowers is not 6 at once', async () => {
    const { model } = await fleetOf(6);
    const artifactId = await releasedFirmware(server, token, model.id, '2.0.0');
    const created = await createCampaign(server, token, { artifactId, phases: [100], ratePerMinute: 120 });
    let sawRateLimit = false;
    await waitFor(async () => {
      const c = await campaign(server, token, created.id);
      if (c.waiting?.reason === 'rate_limit') sawRateLimit = true;
      return c.status === 'completed';
    }, 60_000, 100);
    const times = sentTimes(await jobsOf(created.id));
    expect(times).toHaveLength(6);
    expect(mostInWindow(times, 1000)).toBeLessThanOrEqual(2);
    expect(sawRateLimit).toBe(true);
  }, 90_000);

  it('waits the soak time after a phase before the next one starts, and says so', async () => {
    const { model } = await fleetOf(4);
    const artifactId = await releasedFirmware(server, token, model.id, '2.1.0');
    const created = await createCampaign(server, token, { artifactId, phases: [50, 100], soakSeconds: 3 });
    expect(created).toMatchObject({ soakSeconds: 3, successThresholdPercent: 0 });
    await waitFor(async () => (await campaign(server, token, created.id)).waiting?.reason === 'soak', 30_000, 100);
    const soaking = await campaign(server, token, created.id);
    expect(soaking).toMatchObject({ status: 'running', phaseIndex: 0, counts: { SUCCESS: 2, QUEUED: 2 } });
    expect(Date.parse(soaking.waiting!.until!)).toBeGreaterThan(Date.parse(soaking.createdAt));
    await waitFor(async () => (await campaign(server, token, created.id)).status === 'completed', 60_000, 200);
    const jobs = await jobsOf(created.id);
    const phaseOne = jobs.filter((j) => j.ordinal < 2);
    const lastSuccess = Math.max(...phaseOne.map((j) => Date.parse(j.history.find((h) => h.state === 'SUCCESS')!.at)));
    const phaseTwoSent = sentTimes(jobs.filter((j) => j.ordinal >= 2));
    expect(phaseTwoSent[0]! - lastSuccess).toBeGreaterThanOrEqual(3000);
    expect(Date.parse(soaking.waiting!.until!)).toBeLessThanOrEqual(phaseTwoSent[0]!);
  }, 90_000);

  it('pauses when a phase cannot reach its success share; resuming goes on to the next phase', async () => {
    const { model, mowers } = await fleetOf(4);
    const artifactId = await releasedFirmware(server, token, model.id, '2.2.0');
    const created = await createCampaign(server, token, {
      artifactId,
      phases: [50, 100],
      successThresholdPercent: 100,
      abortFailurePercent: 100,
      abortMinFinished: 100,
      ratePerMinute: 60,
    });
    // The first mower of the rollout order fails its install.
    const ordinal = new Map((await jobsOf(created.id)).map((j) => [j.sn, j.ordinal]));
    for (const m of mowers) m.agent.knobs.failInstall = ordinal.get(m.sn) === 0;
    await waitFor(async () => (await campaign(server, token, created.id)).status === 'paused', 60_000, 200);
    const paused = await campaign(server, token, created.id);
    expect(paused).toMatchObject({ pauseReason: 'SUCCESS_THRESHOLD', phaseIndex: 0, counts: { SUCCESS: 1, FAILED: 1, QUEUED: 2 } });
    const resumed = await server.api<{ phaseIndex: number }>('POST', `/api/admin/ota/campaign/${created.id}/resume`, { token });
    expect(resumed.body.data.phaseIndex).toBe(1);
    await waitFor(async () => (await campaign(server, token, created.id)).status === 'completed_with_failures', 60_000, 200);
    expect((await campaign(server, token, created.id)).counts).toEqual({ SUCCESS: 3, FAILED: 1 });
  }, 90_000);
});
