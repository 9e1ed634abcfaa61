import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { deviceTopics, eventTypes, PROTOCOL_VERSION, type EventTypeName } from '@mowerline/contract';
import { events } from '../../src/events/events.sql.ts';
import { emitDeviceFlagged } from '../../src/gateway/device-flag.ts';
import { failByKey } from '../../src/ota/job-steps.ts';
import { otaJobs } from '../../src/ota/ota.sql.ts';
import { FLEET_EVENT_TYPES } from './emitted-types.ts';
import type { TestServer } from '../harness.ts';
import { connectDevice, registerSn, uniqueSn, waitFor } from '../devices/fixtures.ts';
import { createCampaign, releasedFirmware, seedModel, startOtaServer } from '../ota/fixtures.ts';

/**
 * Every type of the catalogue, emitted where the change happens through the real API and device
 * protocol, and every payload valid against its schema (SQL-built payloads included).
 */
describe('events emitted by the platform', () => {
  let server: TestServer;
  let removeDir: () => void;
  let token: string;

  beforeAll(async () => {
    ({ server, removeDir } = await startOtaServer());
    token = await server.login();
  });
  afterAll(async () => {
    await server?.close();
    removeDir?.();
  });

  const ofType = async (type: EventTypeName, subject?: string) =>
    server.ctx.db
      .select()
      .from(events)
      .where(subject === undefined ? eq(events.type, type) : sql`${events.type} = ${type} and ${events.subject} = ${subject}`);

  it('writes device presence, state and exception events from the ingest, and their lifecycle from staff', async () => {
    const model = await seedModel(server);
    const sn = uniqueSn('EVT');
    const device = await connectDevice(server, sn, await registerSn(server, token, sn, model.id));
    await device.telemetry({ state: 'mowing' });
    await device.publish(deviceTopics.events, { v: 1, id: `e-${sn}`, ts: Date.now(), code: 'BLADE_BLOCKED', severity: 'major', message: 'blade blocked', context: {} });
    const [raised] = await waitFor(async () => {
      const rows = await ofType('device.event.raised', sn);
      return rows.length > 0 ? rows : undefined;
    }, 15_000, 'device.event.raised');
    const eventId = (raised!.payload as { eventId: number }).eventId;
    expect((await server.api('POST', '/api/admin/device/event/ack', { token, body: { ids: [eventId] } })).body).toMatchObject({ code: 0 });
    expect((await server.api('POST', '/api/admin/device/event/clear', { token, body: { ids: [eventId] } })).body).toMatchObject({ code: 0 });
    await device.end();
    for (const type of ['device.connected', 'device.state_changed', 'device.event.acknowledged', 'device.event.cleared', 'device.disconnected'] as const) {
      await waitFor(async () => ((await ofType(type, sn)).length > 0 ? true : undefined), 15_000, type);
    }
    const [state] = await ofType('device.state_changed', sn);
    expect(state!.payload).toMatchObject({ sn, to: 'mowing' });
  });

  it('writes the OTA campaign lifecycle', async () => {
    const model = await seedModel(server);
    const sn = uniqueSn('OTE');
    await registerSn(server, token, sn, model.id);
    const artifactId = await releasedFirmware(server, token, model.id, '9.0.0');
    const created = await createCampaign(server, token, { artifactId });
    const subject = `campaign:${created.id}`;
    await server.api('POST', `/api/admin/ota/campaign/${created.id}/pause`, { token });
    await server.api('POST', `/api/admin/ota/campaign/${created.id}/resume`, { token });
    // Every job ended: the engine's next step completes the campaign.
    await server.ctx.db.update(otaJobs).set({ state: 'SUCCESS' }).where(eq(otaJobs.campaignId, created.id));
    await waitFor(async () => ((await ofType('ota.campaign.completed', subject)).length > 0 ? true : undefined), 30_000, 'ota.campaign.completed');
    const lifecycle = await server.ctx.db.select().from(events).where(eq(events.subject, subject)).orderBy(events.id);
    expect(lifecycle.map((e) => e.type)).toEqual(['ota.campaign.created', 'ota.campaign.paused', 'ota.campaign.resumed', 'ota.campaign.completed']);
    expect(lifecycle[1]!.payload).toMatchObject({ reason: 'MANUAL' });
    expect(lifecycle[3]!.payload).toMatchObject({ status: 'completed' });
  });

  it('writes a run’s start and end from the device’s reports, a failed update, and a flagged mower', async () => {
    const model = await seedModel(server);
    const sn = uniqueSn('RUN');
    const device = await connectDevice(server, sn, await registerSn(server, token, sn, model.id));
    const base = { v: PROTOCOL_VERSION, runId: `run-${sn}`.slice(0, 40) } as const;
    const t0 = Date.now() - 60_000;
    await device.publish(deviceTopics.runs, { ...base, seq: 1, ts: t0, type: 'started', trigger: 'app', scheduleId: null, zones: [], plannedAreaM2: 100, resumes: null });
    await device.publish(deviceTopics.runs, { ...base, seq: 2, ts: t0 + 50_000, type: 'ended', result: 'interrupted', faultCode: 'BLADE_BLOCKED', areaM2: 40, durationS: 50, bladeOnS: 45, distanceM: 30, path: '' });
    await waitFor(async () => ((await ofType('task.run.ended', sn)).length > 0 ? true : undefined), 15_000, 'task.run.ended');
    expect((await ofType('task.run.started', sn))[0]!.payload).toMatchObject({ sn, runId: base.runId });
    expect((await ofType('task.run.ended', sn))[0]!.payload).toMatchObject({ result: 'interrupted', faultCode: 'BLADE_BLOCKED' });
    await device.end();

    // An update that failed for good (no retries left), as a device's FAILED report ends it.
    const artifactId = await releasedFirmware(server, token, model.id, '9.1.0');
    const campaign = await createCampaign(server, token, { artifactId, target: { type: 'sns', sns: [sn] }, retries: 0 });
    await server.ctx.db.update(otaJobs).set({ state: 'INSTALLING', jobKey: `key-${sn}` }).where(eq(otaJobs.campaignId, campaign.id));
    expect(await failByKey(server.ctx.db, `key-${sn}`, sn, 'INSTALL_FAILED')).toBe(1);
    expect((await ofType('ota.job.failed', sn))[0]!.payload).toMatchObject({ sn, campaignId: campaign.id, version: '9.1.0', reason: 'INSTALL_FAILED' });

    expect(await emitDeviceFlagged(server.ctx.db, sn, { rate: 500, limit: 10 }, { warn: () => undefined })).toBe(true);
    // Flagged once: a device already flagged writes nothing more.
    expect(await emitDeviceFlagged(server.ctx.db, sn, { rate: 500, limit: 10 }, { warn: () => undefined })).toBe(false);
    expect(await ofType('device.flagged', sn)).toHaveLength(1);
  });

  it('has emitted each of its types, each payload valid against its schema and version', async () => {
    const all = await server.ctx.db.select().from(events).where(sql`${events.type} = any(${sql.param([...FLEET_EVENT_TYPES])}::text[])`);
    expect([...new Set(all.map((e) => e.type))].sort()).toEqual([...FLEET_EVENT_TYPES].sort());
    for (const e of all) {
      const def = eventTypes[e.type as EventTypeName];
      expect(e.version).toBe(def.version);
      const parsed = def.payload.safeParse(e.payload);
      expect(parsed.success, `${e.type} ${JSON.stringify(e.payload)}`).toBe(true);
    }
  });
});
