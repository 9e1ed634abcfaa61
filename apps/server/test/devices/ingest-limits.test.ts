import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { deviceTopic, deviceTopics, messageKinds, type DeviceDetail } from '@mowerline/contract';
import { deviceEvents, telemetryHistory } from '../../src/devices/devices.sql.ts';
import { messages } from '../../src/messages/messages.sql.ts';
import { staffUsers } from '../../src/staff/staff.sql.ts';
import { systemLogs } from '../../src/system-log/system-log.sql.ts';
import type { TestServer } from '../harness.ts';
import { clearRetained, connectDevice, createModel, EXTERNAL_MQTT, registerSn, startDeviceServer, telemetryPayload, uniqueSn, waitFor } from './fixtures.ts';

/** Per-device ingest limits (defaults: 5 telemetry/s, burst 20; 30 new events an hour). */
describe('per-device ingest limits', () => {
  let server: TestServer;
  let admin: string;
  let modelId: number;
  beforeAll(async () => {
    server = await startDeviceServer();
    admin = await server.login();
    modelId = await createModel(server, admin);
  });
  afterAll(async () => {
    await server.close();
    await clearRetained();
  });

  const rowsOf = async (sn: string) =>
    (await server.ctx.db.select({ n: sql<number>`count(*)::int` }).from(telemetryHistory).where(eq(telemetryHistory.sn, sn)))[0]!.n;
  const detailOf = async (sn: string) => (await server.api<DeviceDetail>('GET', `/api/admin/device/${sn}`, { token: admin })).body.data;
  const counter = (name: string) => server.ctx.gateway.stats().counters[name] ?? 0;

  it('writes at most the budget of a device blasting telemetry at QoS 1, and leaves other devices alone', async () => {
    const loud = uniqueSn();
    const quiet = uniqueSn();
    const loudDevice = await connectDevice(server, loud, await registerSn(server, admin, loud, modelId));
    const quietDevice = await connectDevice(server, quiet, await registerSn(server, admin, quiet, modelId));
    const base = Date.now() - 60_000;
    const started = Date.now();
    // Every publish resolves on its PUBACK: dropped messages are acknowledged too (not sent again).
    const blast = Promise.all(Array.from({ length: 600 }, (_, i) => loudDevice.telemetry({ ts: base + i })));
    for (let i = 0; i < 5; i++) {
      await quietDevice.telemetry({ ts: base + i });
      await new Promise((r) => setTimeout(r, 250));
    }
    await blast;
    // Written or dropped, each of the 600 (an external broker acknowledges before the server has them).
    const { written, detail } = await waitFor(async () => {
      await server.ctx.gateway.flush();
      const [w, d] = await Promise.all([rowsOf(loud), detailOf(loud)]);
      return w + d.ingest.droppedTelemetry === 600 ? { written: w, detail: d } : undefined;
    }, 30_000, 'every message written or dropped');
    // Received within this span at the latest, so the budget is at most the burst and this many seconds' rate.
    const seconds = (Date.now() - started) / 1000;
    expect(written).toBeGreaterThanOrEqual(20);
    expect(written).toBeLessThanOrEqual(Math.ceil(20 + 5 * seconds));
    await waitFor(async () => (await rowsOf(quiet)) === 5, 10_000, 'all of the quiet device written');
    expect(counter('dropped.limited.telemetry')).toBeGreaterThanOrEqual(600 - written);
    // Counted per device, on its detail (the node's share not yet written included).
    expect(detail.ingest.flaggedAt).toBeNull();
    expect((await detailOf(quiet)).ingest).toEqual({ droppedTelemetry: 0, droppedEvents: 0, flaggedAt: null });
    // ... and in the database, summed over the nodes.
    await waitFor(async () => {
      const result = await server.ctx.db.execute(sql`select telemetry::int as telemetry from device_ingest_drops where sn = ${loud}`);
      return (result as unknown as { rows: Array<{ telemetry: number }> }).rows[0]?.telemetry === 600 - written;
    }, 10_000, 'the drops written');
    await loudDevice.end();
    await quietDevice.end();
  });

  it('opens at most 30 active events an hour from 2,000 distinct critical events', async () => {
    const sn = uniqueSn();
    const device = await connectDevice(server, sn, await registerSn(server, admin, sn, modelId));
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 2000 }, (_, i) =>
        device.publish(deviceTopics.events, { v: 1, id: `evt-${sn}-${i}`, ts: Date.now(), code: `FAULT_${i}`, severity: 'critical', message: 'boom', context: {} }),
      ),
    );
    // A code already open folds into its event for free.
    await device.publish(deviceTopics.events, { v: 1, id: `evt-${sn}-again`, ts: Date.now(), code: 'FAULT_0', severity: 'critical', message: 'again', context: {} });
    const activeEvents = () => server.ctx.db.select({ code: deviceEvents.code, occurrences: deviceEvents.occurrences }).from(deviceEvents).where(eq(deviceEvents.sn, sn));
    // Every one written or dropped (an external broker acknowledges before the server has them).
    const active = await waitFor(async () => {
      await server.ctx.gateway.flush();
      const [rows, detail] = await Promise.all([activeEvents(), detailOf(sn)]);
      return rows.length + detail.ingest.droppedEvents === 2000 && rows.find((e) => e.code === 'FAULT_0')?.occurrences === 2 ? rows : undefined;
    }, 30_000, 'every event written or dropped');
    const refill = Math.ceil((30 * (Date.now() - started)) / 3_600_000);
    expect(active.length).toBeGreaterThanOrEqual(30);
    expect(active.length).toBeLessThanOrEqual(30 + refill);
    expect(active.find((e) => e.code === 'FAULT_0')?.occurrences).toBe(2);
    await device.end();
  });

  it('disconnects and flags a device that stays above ten times its limit, tells staff, and lets staff clear the flag', async () => {
    // A short abuse window: the policy's minute would make the test take a minute.
    const server = await startDeviceServer({ config: { deviceAbuseWindowMs: 2000 } });
    const admin = await server.login();
    const modelId = await createModel(server, admin);
    const detailOf = async (sn: string) => (await server.api<DeviceDetail>('GET', `/api/admin/device/${sn}`, { token: admin })).body.data;
    const sn = uniqueSn();
    const secret = await registerSn(server, admin, sn, modelId);
    const device = await connectDevice(server, sn, secret);
    let closed = false;
    device.client.on('close', () => (closed = true));
    // About 200 messages a second (QoS 0, no waiting for PUBACKs), far above 10 × 5/s.
    let stop = false;
    const blaster = (async () => {
      for (let i = 0; !stop && !device.client.disconnected; i++) {
        device.client.publish(deviceTopic(sn, deviceTopics.telemetry), JSON.stringify(telemetryPayload({ ts: Date.now() - 60_000 + i })), { qos: 0 });
        if (i % 10 === 9) await new Promise((r) => setTimeout(r, 50));
      }
    })();
    try {
      await waitFor(async () => (await detailOf(sn)).ingest.flaggedAt, 30_000, 'the device flagged');
      // The embedded broker cuts it off; an external broker's own admin API does that (docs/device-protocol.md).
      if (!EXTERNAL_MQTT) await waitFor(() => closed, 10_000, 'the device disconnected');
    } finally {
      stop = true;
      await blaster;
    }
    expect(server.ctx.gateway.stats().counters['devices.flagged']).toBeGreaterThanOrEqual(1);
    const [me] = await server.ctx.db.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.username, 'admin'));
    const notices = await waitFor(async () => {
      const rows = await server.ctx.db.select().from(messages).where(and(eq(messages.userId, me!.id), eq(messages.kind, messageKinds.deviceFlagged)));
      return rows.length > 0 ? rows : undefined;
    }, 10_000, 'the staff notice');
    expect(notices[0]!.params).toMatchObject({ sn });
    const box = await server.api<{ list: Array<{ title: string; content: string }> }>('GET', '/api/admin/message/list?type=notice', { token: admin, lang: 'en-US' });
    expect(box.body.data.list.find((m) => m.content.includes(sn))?.title).toBe('Device over its message limits disconnected');

    // It may reconnect (still limited); staff clear the flag, audited.
    const again = await connectDevice(server, sn, secret);
    const cleared = await server.api<DeviceDetail['ingest']>('POST', `/api/admin/device/${sn}/clear-flag`, { token: admin });
    expect(cleared.body.code).toBe(0);
    expect(cleared.body.data.flaggedAt).toBeNull();
    expect((await detailOf(sn)).ingest.flaggedAt).toBeNull();
    const logs = await waitFor(async () => {
      const rows = await server.ctx.db.select().from(systemLogs).where(and(eq(systemLogs.action, 'device.flag.clear'), eq(systemLogs.targetId, sn)));
      return rows.length > 0 ? rows : undefined;
    }, 10_000, 'the audit entry');
    expect(logs[0]!.targetName).toBe(sn);
    await again.end();
    if (!device.client.disconnected) await device.client.endAsync();
    await server.close();
  }, 60_000);

  it("applies a model's own limits, set by an admin through the API (validated and audited)", async () => {
    const strict = await createModel(server, admin);
    const refused = await server.api('PUT', `/api/admin/product/model/${strict}`, { token: admin, body: { limits: { telemetryRate: -1 } } });
    expect(refused.status).toBe(400);
    const res = await server.api<{ limits: unknown }>('PUT', `/api/admin/product/model/${strict}`, { token: admin, body: { limits: { telemetryRate: 1, telemetryBurst: 3 } } });
    expect(res.body.code).toBe(0);
    expect(res.body.data.limits).toEqual({ telemetryRate: 1, telemetryBurst: 3, eventsPerHour: null });
    await waitFor(async () => {
      const rows = await server.ctx.db.select().from(systemLogs).where(eq(systemLogs.action, 'product.model.update'));
      return rows.some((r) => JSON.stringify(r.detail).includes('telemetryBurst'));
    }, 10_000, 'the audit entry');

    const sn = uniqueSn();
    const device = await connectDevice(server, sn, await registerSn(server, admin, sn, strict));
    // One message first: on an external broker the node reads the model's limits with it.
    await device.telemetry({ ts: Date.now() - 120_000 });
    await server.ctx.gateway.flush();
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    await Promise.all(Array.from({ length: 100 }, (_, i) => device.telemetry({ ts: Date.now() - 60_000 + i })));
    const seconds = (Date.now() - started) / 1000;
    await server.ctx.gateway.flush();
    const written = (await rowsOf(sn)) - 1;
    expect(written).toBeGreaterThanOrEqual(1);
    expect(written).toBeLessThanOrEqual(Math.ceil(3 + 1 * seconds));
    await device.end();
  });
});
