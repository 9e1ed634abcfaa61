import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { deviceTopics, eventTypeNames, eventTypes, type EventTypeName } from '@mowerline/contract';
import { events } from '../../src/events/events.sql.ts';
import { otaJobs } from '../../src/ota/ota.sql.ts';
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

  it('has emitted every type of the catalogue, each payload valid against its schema and version', async () => {
    const all = await server.ctx.db.select().from(events);
    expect([...new Set(all.map((e) => e.type))].sort()).toEqual([...eventTypeNames].sort());
    for (const e of all) {
      const def = eventTypes[e.type as EventTypeName];
      expect(e.version).toBe(def.version);
      const parsed = def.payload.safeParse(e.payload);
      expect(parsed.success, `${e.type} ${JSON.stringify(e.payload)}`).toBe(true);
    }
  });
});
