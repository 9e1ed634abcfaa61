import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { OtaMower } from '../../../fleet-sim/src/ota-mower.ts';
import { messageKinds } from '@mowerline/contract';
import { messages } from '../../src/messages/messages.sql.ts';
import { rowsOf } from '../../src/ota/job-steps.ts';
import { otaJobs } from '../../src/ota/ota.sql.ts';
import type { TestServer } from '../harness.ts';
import { campaign, createCampaign, firmwareImage, releasedFirmware, seedDevices, seedModel, startMowers, startOtaServer, waitFor } from './fixtures.ts';

describe('OTA failure paths', () => {
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

  async function fleetOf(count: number, knobs?: Parameters<typeof startMowers>[3]) {
    const model = await seedModel(server);
    const { sns, secret } = await seedDevices(server, model.id, count);
    const mowers = await startMowers(server, sns, secret, knobs);
    fleet.push(...mowers);
    return { model, mowers, sns, secret };
  }

  const jobsOf = (campaignId: number) => server.ctx.db.select().from(otaJobs).where(eq(otaJobs.campaignId, campaignId));
  /** The campaign's ticks queued or running in the engine's job queue (pg-boss). */
  const pendingTicks = async (campaignId: number) =>
    rowsOf<{ n: number }>(
      await server.ctx.db.execute(
        sql`select count(*)::int as n from pgboss.job where name = 'ota-campaign-tick' and singleton_key = ${String(campaignId)} and state in ('created', 'retry', 'active')`,
      ),
    )[0]!.n;

  it('pauses the rollout automatically when 20% of installs fail', async () => {
    const { model, mowers } = await fleetOf(100);
    const artifactId = await releasedFirmware(server, token, model.id, '2.0.0');
    const created = await createCampaign(server, token, { artifactId, phases: [20, 60, 100], abortFailurePercent: 10, abortMinFinished: 20, ratePerMinute: 10_000 });
    // Every fifth mower in rollout order has a bad flash: 20% of each phase.
    const ordinal = new Map((await jobsOf(created.id)).map((j) => [j.sn, j.ordinal]));
    for (const m of mowers) m.agent.knobs.failInstall = ordinal.get(m.sn)! % 5 === 0;

    await waitFor(async () => (await campaign(server, token, created.id)).status === 'paused', 60_000, 200);
    const paused = await campaign(server, token, created.id);
    expect(paused.pauseReason).toBe('ABORT_THRESHOLD');
    expect(paused.counts.FAILED).toBeGreaterThanOrEqual(4);
    // Later phases were never started.
    expect(paused.counts.QUEUED).toBeGreaterThanOrEqual(40);
    // Administrators hear about it in the message box.
    const notes = await server.ctx.db.select().from(messages).where(eq(messages.kind, messageKinds.otaCampaignPaused));
    expect(notes).toHaveLength(1);
    expect(notes[0]!.params).toMatchObject({ id: String(created.id), name: 'test rollout' });
    const failed = await server.ctx.db.select().from(otaJobs).where(and(eq(otaJobs.campaignId, created.id), eq(otaJobs.state, 'FAILED')));
    expect(failed.every((j) => j.reason === 'INSTALL_FAILED')).toBe(true);
    // Nothing more is dispatched while paused: once no campaign tick is waiting or running (the
    // engine stopped rescheduling it, and the tick that paused it has ended), the rows stand still.
    await waitFor(async () => (await pendingTicks(created.id)) === 0, 30_000, 50);
    const after = await campaign(server, token, created.id);
    expect(after.status).toBe('paused');
    expect(after.counts.QUEUED).toBe(paused.counts.QUEUED);
    const resumed = await server.api<{ status: string }>('POST', `/api/admin/ota/campaign/${created.id}/resume`, { token });
    expect(resumed.body.data.status).toBe('running');
    const cancelled = await server.api<{ status: string; counts: Record<string, number> }>('POST', `/api/admin/ota/campaign/${created.id}/cancel`, { token });
    expect(cancelled.body.data.status).toBe('cancelled');
    const again = await server.api('POST', `/api/admin/ota/campaign/${created.id}/pause`, { token, lang: 'en-US' });
    expect(again.body).toMatchObject({ code: 43010, msg: 'The campaign is cancelled and cannot pause' });
  }, 120_000);

  it('resumes a download from the byte offset after a power loss at 60%', async () => {
    const { model, mowers } = await fleetOf(1, { knobs: () => ({ powerLossAt: 0.6 }) });
    const image = firmwareImage(512 * 1024);
    const artifactId = await releasedFirmware(server, token, model.id, '2.1.0', image);
    const created = await createCampaign(server, token, { artifactId, phases: [100] });
    await waitFor(async () => (await campaign(server, token, created.id)).status === 'completed', 60_000, 200);
    expect((await campaign(server, token, created.id)).counts).toEqual({ SUCCESS: 1 });
    const [mower] = mowers;
    expect(mower!.firmware()).toBe('2.1.0');
    const [first, second] = mower!.agent.downloads;
    expect(mower!.agent.downloads).toHaveLength(2);
    expect(first).toEqual({ range: null, status: 200 });
    const offset = Number(/^bytes=(\d+)-$/.exec(second!.range ?? '')?.[1]);
    expect(offset).toBeGreaterThanOrEqual(image.length * 0.6);
    expect(offset).toBeLessThan(image.length);
    expect(second!.status).toBe(206);
    const [job] = await jobsOf(created.id);
    expect(job!.attempt).toBe(0);
  }, 90_000);

  it('fails verification of a corrupted download and reports why', async () => {
    const { model, mowers } = await fleetOf(1, { knobs: () => ({ corrupt: true }) });
    const artifactId = await releasedFirmware(server, token, model.id, '2.2.0');
    const created = await createCampaign(server, token, { artifactId, phases: [100] });
    // A rollout whose only device failed does not end as a plain "completed".
    await waitFor(async () => (await campaign(server, token, created.id)).status === 'completed_with_failures', 60_000, 200);
    const [job] = await jobsOf(created.id);
    expect(job).toMatchObject({ state: 'FAILED', reason: 'SHA256_MISMATCH' });
    expect(job!.history.map((h) => h.state)).toEqual(['QUEUED', 'SENT', 'DOWNLOADING', 'DOWNLOADED', 'FAILED']);
    expect(mowers[0]!.firmware()).toBe('1.0.0');
  }, 90_000);

  it('picks up a device that was offline when it comes online', async () => {
    const model = await seedModel(server);
    const { sns, secret } = await seedDevices(server, model.id, 3);
    const mowers = await startMowers(server, sns.slice(0, 2), secret);
    const [late] = await startMowers(server, sns.slice(2), secret, { connect: false });
    fleet.push(...mowers, late!);
    const artifactId = await releasedFirmware(server, token, model.id, '3.0.0');
    const created = await createCampaign(server, token, { artifactId, phases: [100] });
    await waitFor(async () => (await campaign(server, token, created.id)).counts.SUCCESS === 2, 60_000, 200);
    expect((await campaign(server, token, created.id)).status).toBe('running');
    await late!.connect();
    await waitFor(async () => (await campaign(server, token, created.id)).status === 'completed', 60_000, 200);
    expect((await campaign(server, token, created.id)).counts).toEqual({ SUCCESS: 3 });
    expect(late!.firmware()).toBe('3.0.0');
  }, 90_000);
});
