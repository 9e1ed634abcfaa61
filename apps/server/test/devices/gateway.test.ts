import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { deviceTopic, deviceTopics, type GatewayStats } from '@mowerline/contract';
import { deviceState, LAST_SEEN_RESOLUTION_S, telemetryHistory } from '../../src/devices/devices.sql.ts';
import { buildApp } from '../../src/app.ts';
import { rowsOf } from '../../src/ota/job-steps.ts';
import { sweepStale, trimHistory, vacuumAll, vacuumHotState } from '../../src/gateway/maintenance.ts';
import type { TestServer } from '../harness.ts';
import {
  brokerAuthHeaders,
  clearRetained,
  connectDevice,
  createModel,
  EXTERNAL_MQTT,
  NO_DEVICE_LIMITS,
  refusedConnect,
  registerSn,
  silentDevice,
  startDeviceServer,
  telemetryPayload,
  uniqueSn,
  waitFor,
} from './fixtures.ts';

describe('device gateway', () => {
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

  const stateOf = async (sn: string) => (await server.ctx.db.select().from(deviceState).where(eq(deviceState.sn, sn)))[0];
  const historyOf = (sn: string) => server.ctx.db.select().from(telemetryHistory).where(eq(telemetryHistory.sn, sn)).orderBy(telemetryHistory.at);
  const stats = async () => (await server.api<GatewayStats>('GET', '/api/admin/device/gateway-stats', { token: admin })).body.data;
  const auth = (body: Record<string, unknown>) => server.api<{ result: string }>('POST', '/api/device-auth/mqtt', { body, headers: brokerAuthHeaders });
  const acl = (body: Record<string, unknown>) => server.api<{ result: string }>('POST', '/api/device-auth/mqtt/acl', { body, headers: brokerAuthHeaders });

  describe('authentication', () => {
    let sn: string;
    let secret: string;
    let disabledSn: string;
    let disabledSecret: string;
    beforeAll(async () => {
      sn = uniqueSn();
      secret = await registerSn(server, admin, sn, modelId);
      disabledSn = uniqueSn();
      disabledSecret = await registerSn(server, admin, disabledSn, modelId);
      await server.api('PUT', `/api/admin/product/sn/${disabledSn}`, { token: admin, body: { enabled: false } });
    });

    it('refuses an unknown SN, a wrong secret, a client id other than the SN and a disabled SN', async () => {
      // A disabled SN also loses its topics on an external broker (at the next ACL check).
      expect((await acl({ username: disabledSn, clientid: disabledSn, topic: deviceTopic(disabledSn, 'telemetry'), acc: 2 })).status).toBe(403);
      expect((await acl({ username: sn, clientid: sn, topic: deviceTopic(sn, 'telemetry'), acc: 2 })).status).toBe(200);
      if (EXTERNAL_MQTT) {
        // This Mosquitto has no auth plug-in: the broker's HTTP back-end is checked directly.
        expect((await auth({ username: uniqueSn(), password: secret, clientid: '' })).status).toBe(403);
        expect((await auth({ username: sn, password: `${secret}x`, clientid: sn })).status).toBe(403);
        expect((await auth({ username: sn, password: secret, clientid: 'someone-else' })).status).toBe(403);
        expect((await auth({ username: disabledSn, password: disabledSecret, clientid: disabledSn })).status).toBe(403);
        return;
      }
      const stranger = uniqueSn();
      expect(await refusedConnect(server, { clientId: stranger, username: stranger, password: secret })).toBe(4);
      expect(await refusedConnect(server, { clientId: sn, username: sn, password: `${secret}x` })).toBe(4);
      expect(await refusedConnect(server, { clientId: 'someone-else', username: sn, password: secret })).toBe(4);
      expect(await refusedConnect(server, { clientId: sn, username: sn })).toBe(4);
      expect(await refusedConnect(server, { clientId: disabledSn, username: disabledSn, password: disabledSecret })).toBe(5);
      const counters = (await stats()).counters;
      expect(counters['connect.refused.unknown']).toBeGreaterThanOrEqual(2);
      expect(counters['connect.refused.secret']).toBeGreaterThanOrEqual(1);
      expect(counters['connect.refused.clientId']).toBeGreaterThanOrEqual(1);
      expect(counters['connect.refused.disabled']).toBeGreaterThanOrEqual(1);
    });

    it('accepts the right credentials (the HTTP back-end answers in the brokers’ format)', async () => {
      const ok = await auth({ username: sn, password: secret, clientid: sn });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ result: 'allow', is_superuser: false });
      expect((await auth({ username: sn, password: 'wrong-secret-wrong-secret-wrong-secret', clientid: sn })).body).toEqual({ result: 'deny', is_superuser: false });
      if (!EXTERNAL_MQTT) {
        const device = await connectDevice(server, sn, secret);
        expect(device.client.connected).toBe(true);
        await device.end();
      }
    });

    it('cuts a connected device off when its SN is disabled, and lets it back once enabled', async () => {
      if (EXTERNAL_MQTT) return; // kicking is the external broker's own admin API (docs/device-protocol.md)
      const other = uniqueSn();
      const otherSecret = await registerSn(server, admin, other, modelId);
      const device = await connectDevice(server, other, otherSecret);
      const closed = new Promise<void>((resolve) => device.client.once('close', () => resolve()));
      await server.api('PUT', `/api/admin/product/sn/${other}`, { token: admin, body: { enabled: false } });
      await closed;
      expect(await refusedConnect(server, { clientId: other, username: other, password: otherSecret })).toBe(5);
      await server.api('PUT', `/api/admin/product/sn/${other}`, { token: admin, body: { enabled: true } });
      const again = await connectDevice(server, other, otherSecret);
      await again.end();
    });
  });

  describe('topic isolation', () => {
    it('lets a device publish and subscribe only under its own SN', async () => {
      const a = uniqueSn('A');
      const b = uniqueSn('B');
      const aSecret = await registerSn(server, admin, a, modelId);
      const bSecret = await registerSn(server, admin, b, modelId);

      // The ACL rule the embedded broker and the HTTP back-end share.
      expect((await acl({ username: a, clientid: a, topic: deviceTopic(a, 'telemetry'), acc: 2 })).status).toBe(200);
      expect((await acl({ username: a, clientid: a, topic: deviceTopic(b, 'telemetry'), acc: 2 })).status).toBe(403);
      expect((await acl({ username: a, clientid: a, topic: deviceTopic(a, 'cmd/req'), acc: 2 })).status).toBe(403);
      expect((await acl({ username: a, clientid: a, topic: deviceTopic(a, 'cmd/req'), acc: 4 })).status).toBe(200);
      expect((await acl({ username: a, clientid: a, topic: deviceTopic(b, 'cmd/req'), acc: 4 })).status).toBe(403);
      expect((await acl({ username: a, clientid: a, topic: 'mowerline/v1/devices/+/telemetry', action: 'subscribe' })).status).toBe(403);
      expect((await acl({ username: a, clientid: a, topic: '#', action: 'subscribe' })).status).toBe(403);

      if (EXTERNAL_MQTT) return;
      const deviceA = await connectDevice(server, a, aSecret);
      const deviceB = await connectDevice(server, b, bSecret);
      // A cannot read B's commands: the subscription is refused (SUBACK 0x80).
      await expect(deviceA.client.subscribeAsync(deviceTopic(b, deviceTopics.cmdReq), { qos: 1 })).rejects.toThrow(/Subscribe error/);
      // A spoofing B's telemetry is dropped at the broker (and A is disconnected, MQTT 3.1.1 style).
      deviceA.client.publish(deviceTopic(b, deviceTopics.telemetry), JSON.stringify(telemetryPayload({ battery: 99 })), { qos: 1 });
      await deviceB.telemetry({ battery: 11 });
      await waitFor(async () => (await stateOf(b))?.battery === 11, 10_000, 'B telemetry');
      await server.ctx.gateway.flush();
      expect((await historyOf(b)).map((h) => h.battery)).toEqual([11]);
      expect((await stats()).counters['publish.denied']).toBeGreaterThanOrEqual(1);
      await deviceB.end();
      await deviceA.client.endAsync(true);
    });
  });

  describe('ingest', () => {
    it('writes telemetry to the history and the latest state, and marks the device online', async () => {
      const sn = uniqueSn();
      const device = await connectDevice(server, sn, await registerSn(server, admin, sn, modelId));
      const ts = Date.now();
      await device.telemetry({ ts: ts - 2000, battery: 70 });
      await device.telemetry({ ts, battery: 69, state: 'returning', activity: 'going_home', position: { lat: 35.68, lng: 139.69, heading: 10 } });
      await device.telemetry({ ts: ts + 1000, battery: 68, state: 'returning', activity: 'going_home', position: { lat: 35.68, lng: 139.69, heading: 10 } });
      // A message with an older device time received last is the latest state: receive order, not
      // device time, decides (a clock that jumped must not freeze the state; mqtt-abuse.test.ts).
      await device.telemetry({ ts: ts - 1000, battery: 75, state: 'returning', activity: 'going_home', position: { lat: 35.68, lng: 139.69, heading: 10 } });
      const state = await waitFor(async () => {
        const s = await stateOf(sn);
        return s?.online && s.battery === 75 && (await historyOf(sn)).length === 4 ? s : undefined;
      }, 10_000, 'telemetry written');
      // Presence and telemetry written in one batch: the connection id of the `online` is kept.
      expect(state).toMatchObject({ online: true, connId: device.conn, state: 'returning', activity: 'going_home', lat: 35.68, lng: 139.69, firmware: '1.2.3' });
      expect(state.telemetryAt?.getTime()).toBe(ts - 1000);
      // The history is in device time.
      expect((await historyOf(sn)).map((h) => h.battery)).toEqual([70, 75, 69, 68]);
      // The indexed last-seen column moves at most every LAST_SEEN_RESOLUTION_S (HOT updates);
      // the API's last seen is still the latest receive time.
      const firstSeen = state.lastSeenAt.getTime();
      expect(state.telemetryReceivedAt!.getTime()).toBeGreaterThanOrEqual(firstSeen);
      expect(state.telemetryReceivedAt!.getTime() - firstSeen).toBeLessThan(LAST_SEEN_RESOLUTION_S * 1000);
      const detail = (await server.api<{ lastSeenAt: string }>('GET', `/api/admin/device/${sn}`, { token: admin })).body.data;
      expect(Date.parse(detail.lastSeenAt)).toBe(state.telemetryReceivedAt!.getTime());
      await device.end();
      await waitFor(async () => (await stateOf(sn))?.online === false, 10_000, 'offline after a clean disconnect');
    });

    it('drops and counts malformed messages without disturbing the device or others', async () => {
      const sn = uniqueSn();
      const device = await connectDevice(server, sn, await registerSn(server, admin, sn, modelId));
      const before = (await stats()).counters;
      await device.publish(deviceTopics.telemetry, '{not json');
      await device.publish(deviceTopics.telemetry, telemetryPayload({ battery: 150 }));
      await device.publish(deviceTopics.telemetry, { ...telemetryPayload(), v: 2 });
      // The embedded broker refuses an oversized publish itself, closing the connection (mqtt-abuse.test.ts).
      if (EXTERNAL_MQTT) await device.publish(deviceTopics.telemetry, { ...telemetryPayload(), firmware: 'x'.repeat(70_000) });
      await device.publish(deviceTopics.events, { v: 1, code: 'lower-case', severity: 'major' });
      await device.telemetry({ battery: 42 });
      await waitFor(async () => (await stateOf(sn))?.battery === 42, 10_000, 'valid telemetry after the bad ones');
      await server.ctx.gateway.flush();
      const after = (await stats()).counters;
      const delta = (key: string) => (after[key] ?? 0) - (before[key] ?? 0);
      expect(delta('dropped.json')).toBeGreaterThanOrEqual(1);
      expect(delta('dropped.schema')).toBeGreaterThanOrEqual(2);
      expect(delta('dropped.version')).toBeGreaterThanOrEqual(1);
      if (EXTERNAL_MQTT) expect(delta('dropped.oversize')).toBeGreaterThanOrEqual(1);
      expect((await historyOf(sn)).map((h) => h.battery)).toEqual([42]);
      expect(device.client.connected).toBe(true);
      await device.end();
    });

    it('detects a device that goes silent through its last will', async () => {
      const sn = uniqueSn();
      const secret = await registerSn(server, admin, sn, modelId);
      const device = await silentDevice(server, sn, secret, 'silent-conn-1', 1);
      await waitFor(async () => (await stateOf(sn))?.online === true, 10_000, 'online');
      // Keep-alive 1 s: the broker gives up after 1.5 s of silence and publishes the will.
      await waitFor(async () => (await stateOf(sn))?.online === false, 15_000, 'offline via the last will');
      device.destroy();
    });

    it('ignores the late will of a connection the device already replaced', async () => {
      const sn = uniqueSn();
      const secret = await registerSn(server, admin, sn, modelId);
      const device = await connectDevice(server, sn, secret);
      await waitFor(async () => (await stateOf(sn))?.connId === device.conn, 10_000, 'first connection');
      // The old connection's will arrives after the new connection announced itself.
      await device.publish(deviceTopics.status, { v: 1, online: true, conn: 'newer-connection' }, { retain: true });
      await device.publish(deviceTopics.status, { v: 1, online: false, conn: device.conn });
      await device.telemetry({ battery: 55 });
      await waitFor(async () => (await stateOf(sn))?.battery === 55, 10_000, 'telemetry');
      expect(await stateOf(sn)).toMatchObject({ online: true, connId: 'newer-connection' });
      await device.client.endAsync();
    });
  });

  describe('upkeep', () => {
    it('connects over MQTT-over-WebSocket at /mqtt on the HTTP port', async () => {
      if (EXTERNAL_MQTT) return; // the external broker has its own WebSocket listener
      const sn = uniqueSn('WS');
      const secret = await registerSn(server, admin, sn, modelId);
      const device = await connectDevice(server, sn, secret, { url: `${server.url.replace('http', 'ws')}/mqtt` });
      await device.telemetry({ battery: 33 });
      await waitFor(async () => (await stateOf(sn))?.battery === 33, 10_000, 'telemetry over WebSocket');
      await device.end();
    });

    it('marks silent devices offline and trims history past the retention', async () => {
      const sn = uniqueSn('UP');
      await registerSn(server, admin, sn, modelId);
      const db = server.ctx.db;
      await db.update(deviceState).set({ online: true, lastSeenAt: new Date(Date.now() - 3_600_000) }).where(eq(deviceState.sn, sn));
      expect(await sweepStale(db, server.config.deviceStaleSeconds)).toBeGreaterThanOrEqual(1);
      expect((await stateOf(sn))?.online).toBe(false);
      // Heard from recently although the coarse last-seen column is old: not silent.
      await db.update(deviceState).set({ online: true, telemetryReceivedAt: new Date() }).where(eq(deviceState.sn, sn));
      await sweepStale(db, server.config.deviceStaleSeconds);
      expect((await stateOf(sn))?.online).toBe(true);
      const row = { sn, state: 'idle', activity: 'parked_in_cs', battery: 50, bladeRpm: 0, rssi: -70, firmware: '1.0.0' };
      await db.insert(telemetryHistory).values([
        { ...row, at: new Date(Date.now() - 40 * 86_400_000), receivedAt: new Date(Date.now() - 40 * 86_400_000) },
        { ...row, at: new Date(Date.now() - 86_400_000), receivedAt: new Date(Date.now() - 86_400_000) },
      ]);
      expect(await trimHistory(db, 30, 1)).toBeGreaterThanOrEqual(1);
      expect((await historyOf(sn)).map((h) => h.battery)).toEqual([50]);
      // The embedded database has no autovacuum: the maintenance vacuums and analyzes it itself
      // (and may do so on PostgreSQL as well, where it is merely redundant).
      await vacuumHotState(db);
      await vacuumAll(db);
      const [stats] = rowsOf<{ n: number }>(await db.execute(sql`select reltuples::float8 as n from pg_class where relname = 'telemetry_history'`));
      expect(Number(stats!.n)).toBeGreaterThanOrEqual(1);
    });
  });

  it('answers commands over the request/response channel, with timeouts', async () => {
    const sn = uniqueSn();
    const device = await connectDevice(server, sn, await registerSn(server, admin, sn, modelId));
    await device.client.subscribeAsync(deviceTopic(sn, deviceTopics.cmdReq), { qos: 1 });
    device.client.on('message', (_topic, payload) => {
      const req = JSON.parse(payload.toString()) as { id: string; name: string };
      if (req.name === 'ping') void device.publish(deviceTopics.cmdRes, { v: 1, id: req.id, ok: true, result: { pong: true } });
      if (req.name === 'dance') void device.publish(deviceTopics.cmdRes, { v: 1, id: req.id, ok: false, error: { code: 'UNKNOWN_COMMAND', message: 'no such command: dance' } });
      // `sleep` is never answered.
    });
    await waitFor(async () => (await stateOf(sn))?.online, 10_000, 'online');
    expect(await server.ctx.gateway.sendCommand(sn, 'ping', {}, 5000)).toEqual({ pong: true });
    await expect(server.ctx.gateway.sendCommand(sn, 'dance', {}, 5000)).rejects.toMatchObject({ reason: 'device', device: { code: 'UNKNOWN_COMMAND' } });
    await expect(server.ctx.gateway.sendCommand(sn, 'sleep', {}, 300)).rejects.toMatchObject({ reason: 'timeout' });
    await expect(server.ctx.gateway.sendCommand(uniqueSn(), 'ping', {}, 300)).rejects.toMatchObject({ reason: 'offline' });
    // Any node may ask: a response is routed by id, whichever node the broker hands it to.
    expect(await server.ctx.gateway.sendCommand(sn, 'ping', {}, 5000)).toEqual({ pong: true });
    await device.end();
  });

});

describe('device gateway restart', () => {
  // A long flush interval: every message is still in memory when the server is told to stop.
  let server: TestServer;
  beforeAll(async () => {
    // Acknowledged before written (DEVICE_ACK_AFTER_WRITE=false): what a clean stop must still write.
    server = await startDeviceServer({ config: { telemetryFlushMs: 60_000, telemetryBatchMax: 5000, deviceAckAfterWrite: false, ...NO_DEVICE_LIMITS } });
  });
  afterAll(() => server.close());

  // With acknowledge-after-write (the default) nothing is acknowledged yet unwritten at a stop;
  // kill-ingest.test.ts covers that mode.
  it('keeps every acknowledged QoS 1 message across a restart', async () => {
    const admin = await server.login();
    const sn = uniqueSn();
    const secret = await registerSn(server, admin, sn, await createModel(server, admin));
    const device = await connectDevice(server, sn, secret);
    const start = Date.now() - 60_000;
    const count = 300;
    // Each publish resolves on the broker's PUBACK: these are the accepted messages.
    await Promise.all(Array.from({ length: count }, (_, i) => device.telemetry({ ts: start + i * 100, battery: i % 101 })));
    const [before] = await server.ctx.db.select({ n: sql<number>`count(*)::int` }).from(telemetryHistory).where(eq(telemetryHistory.sn, sn));
    expect(before?.n).toBe(0);
    // Stop the server (as on SIGTERM) and start a new one on the same database.
    await server.app.close();
    device.client.end(true);
    const restarted = await buildApp(server.config, server.database, { logger: false });
    await restarted.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const [row] = await restarted.ctx.db.select({ n: sql<number>`count(*)::int` }).from(telemetryHistory).where(eq(telemetryHistory.sn, sn));
      expect(row?.n).toBe(count);
      const [state] = await restarted.ctx.db.select().from(deviceState).where(eq(deviceState.sn, sn));
      expect(state?.battery).toBe((count - 1) % 101);
    } finally {
      await restarted.app.close();
    }
  });
});
