import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import mqtt from 'mqtt';
import { deviceTopic, deviceTopics, type DeviceDetail, type EventPayload, type GatewayStats, type Telemetry } from '@mowerline/contract';
import { deviceEvents, deviceState, telemetryHistory } from '../../src/devices/devices.sql.ts';
import { createBatchWriter } from '../../src/gateway/batch-writer.ts';
import { Counters } from '../../src/gateway/counters.ts';
import { writeSplitting, type Received } from '../../src/gateway/ingest.ts';
import { sweepStale } from '../../src/gateway/maintenance.ts';
import type { TestServer } from '../harness.ts';
import {
  brokerAuthHeaders,
  brokerUrl,
  clearRetained,
  connectDevice,
  createModel,
  EXTERNAL_MQTT,
  NO_DEVICE_LIMITS,
  registerSn,
  startDeviceServer,
  telemetryPayload,
  uniqueSn,
  waitFor,
  type TestDevice,
} from './fixtures.ts';

/**
 * Issue 12, reproduced with real MQTT clients against the embedded broker, or Mosquitto when
 * TEST_MQTT_URL is set: a faulty or hostile device must never cost another device its data, freeze
 * its own state, or fill the broker's memory.
 */
describe('MQTT abuse', () => {
  let server: TestServer;
  let admin: string;
  let modelId: number;
  beforeAll(async () => {
    // Malformed payloads, not rates, are on trial here: the devices send far more than a mower's budget.
    server = await startDeviceServer({ config: NO_DEVICE_LIMITS });
    admin = await server.login();
    modelId = await createModel(server, admin);
  });
  afterAll(async () => {
    await server.close();
    await clearRetained();
  });

  const stats = async () => (await server.api<GatewayStats>('GET', '/api/admin/device/gateway-stats', { token: admin })).body.data;
  const historyOf = (sn: string) => server.ctx.db.select().from(telemetryHistory).where(eq(telemetryHistory.sn, sn)).orderBy(telemetryHistory.at);
  const historyCount = async (sns: string[]) => (await server.ctx.db.select({ sn: telemetryHistory.sn }).from(telemetryHistory).where(inArray(telemetryHistory.sn, sns))).length;
  const detail = async (sn: string) => (await server.api<DeviceDetail>('GET', `/api/admin/device/${sn}`, { token: admin })).body.data;
  const newDevice = async () => {
    const sn = uniqueSn('AB');
    const secret = await registerSn(server, admin, sn, modelId);
    return { sn, secret, device: await connectDevice(server, sn, secret) };
  };
  const event = (id: string, extra: Partial<Record<keyof EventPayload, unknown>> = {}) => ({
    v: 1,
    id,
    ts: Date.now(),
    code: 'BLADE_BLOCKED',
    severity: 'major',
    message: 'blocked',
    context: {},
    ...extra,
  });

  /** Telemetry from each device, `count` messages with distinct device times; resolves once all are acknowledged. */
  const steadyTelemetry = (devices: TestDevice[], count: number, base = Date.now() - count * 1000) =>
    Promise.all(devices.map(async (d) => {
      for (let i = 0; i < count; i++) await d.telemetry({ ts: base + i * 1000, battery: i % 101 });
    }));

  it('a device publishing NUL and lone surrogates loses nobody else’s telemetry', async () => {
    const a = await newDevice();
    const b = await newDevice();
    const c = await newDevice();
    const before = (await stats()).counters;
    // A floods its events topic with text PostgreSQL cannot store while B and C report.
    const poison = (async () => {
      for (let i = 0; i < 15; i++) {
        await a.device.publish(
          deviceTopics.events,
          // Raw JSON so the escapes reach the server as written: NUL, a lone high and a lone low surrogate.
          `{"v":1,"id":"poison-${String(i).padStart(4, '0')}","ts":${Date.now()},"code":"COLLISION_SENSOR","severity":"minor","message":"a\\u0000b\\ud800c\\udfff","context":{"k\\u0000":"v\\u0000","s":"\\udc00"}}`,
        );
      }
    })();
    await Promise.all([poison, steadyTelemetry([b.device, c.device], 60)]);
    await waitFor(async () => (await historyCount([b.sn, c.sn])) === 120, 20_000, 'all of B’s and C’s telemetry');
    await server.ctx.gateway.flush();
    expect(await historyCount([b.sn, c.sn])).toBe(120);
    // A's text was neutralised, not refused: the fault itself is recorded.
    const [stored] = await server.ctx.db.select().from(deviceEvents).where(eq(deviceEvents.sn, a.sn));
    expect(stored).toMatchObject({ code: 'COLLISION_SENSOR', message: 'a\uFFFDb\uFFFDc\uFFFD', context: { 'k\uFFFD': 'v\uFFFD', s: '\uFFFD' }, occurrences: 15 });
    const after = (await stats()).counters;
    expect((after['dropped.writeFailed'] ?? 0) - (before['dropped.writeFailed'] ?? 0)).toBe(0);
    for (const d of [a, b, c]) await d.device.end();
  });

  it('a batch the database refuses is split: only the offending row is dropped and counted', async () => {
    // Past validation (an older server, or text a future check misses): the writer itself must cope.
    const a = uniqueSn('AB');
    const b = uniqueSn('AB');
    await registerSn(server, admin, a, modelId);
    await registerSn(server, admin, b, modelId);
    const receivedAt = new Date();
    const base = Date.now() - 60_000;
    const telemetry: Received<Telemetry>[] = Array.from({ length: 40 }, (_, i) => ({ sn: b, receivedAt, body: telemetryPayload({ ts: base + i, battery: 50 }) }));
    const good = (id: string, sn: string): Received<EventPayload> => ({ sn, receivedAt, body: { ...(event(id) as EventPayload), code: 'STUCK' } });
    const bad: Received<EventPayload> = { sn: a, receivedAt, body: { ...(event('raw-nul-0001') as EventPayload), message: 'a\u0000b' } };
    const counters = new Counters();
    const warnings: object[] = [];
    const write = createBatchWriter(server.ctx.db, counters, { clockSkewMs: 300_000 });
    const left = await writeSplitting(write, { statuses: [], telemetry, events: [good('good-0001', b), bad, good('good-0002', a)] }, counters, {
      warn: (o) => warnings.push(o),
    });
    expect(left).toBeUndefined();
    expect(counters.get('dropped.rejected.events')).toBe(1);
    expect(counters.get('written.telemetry')).toBe(40);
    expect(counters.get('flush.split')).toBeGreaterThanOrEqual(2);
    expect((await historyOf(b)).length).toBe(40);
    const events = await server.ctx.db.select().from(deviceEvents).where(inArray(deviceEvents.sn, [a, b]));
    expect(events.map((e) => `${e.sn}:${e.code}`).sort()).toEqual([`${a}:STUCK`, `${b}:STUCK`].sort());
    expect(warnings).toEqual([expect.objectContaining({ sn: a, kind: 'events' })]);
  });

  it('a device clock in 2099 does not freeze the device: the state follows receive order, device time is kept', async () => {
    const d = await newDevice();
    const future = 4_102_000_000_000;
    await d.device.telemetry({ ts: future, battery: 10 });
    await waitFor(async () => (await detail(d.sn)).battery === 10, 10_000, 'the future telemetry');
    await d.device.telemetry({ ts: Date.now(), battery: 55 });
    const shown = await waitFor(async () => {
      const now = await detail(d.sn);
      return now.battery === 55 ? now : undefined;
    }, 10_000, 'the fresh battery');
    expect(shown).toMatchObject({ online: true, battery: 55, state: 'mowing' });
    // The future row sits at its receive time, with the device's claim kept as data.
    const history = await historyOf(d.sn);
    expect(history).toHaveLength(2);
    const clamped = history.find((h) => h.battery === 10)!;
    expect(clamped.deviceTs?.getTime()).toBe(future);
    expect(clamped.at.getTime()).toBe(clamped.receivedAt.getTime());
    expect(history.find((h) => h.battery === 55)!.deviceTs).toBeNull();
    expect((await stats()).counters['clock.ahead']).toBeGreaterThanOrEqual(1);
    // Still sending, so never stale.
    await sweepStale(server.ctx.db, 30);
    expect((await server.ctx.db.select().from(deviceState).where(eq(deviceState.sn, d.sn)))[0]).toMatchObject({ online: true, battery: 55 });
    await d.device.end();
  });

  it('NUL bytes, malformed JSON, future times and huge payloads on every device topic cost other devices nothing', async () => {
    const b = await newDevice();
    const c = await newDevice();
    const abuserSn = uniqueSn('AB');
    const abuserSecret = await registerSn(server, admin, abuserSn, modelId);
    const topics = [deviceTopics.telemetry, deviceTopics.events, deviceTopics.status, deviceTopics.cmdRes, 'ota/progress', 'shell/AbuseSession0001/out', 'anything/else'];
    const payloads: Array<string | Buffer> = [
      Buffer.from([0x7b, 0x00, 0x00, 0x7d]),
      '{"v":1,',
      'null',
      '[]',
      JSON.stringify(telemetryPayload({ ts: 4_102_000_000_000 })),
      JSON.stringify({ ...event('abuse-nul-0001'), message: 'x\u0000y' }),
      JSON.stringify({ v: 1, online: true, conn: 'abuse\u0000conn' }),
      JSON.stringify({ v: 1, id: 'abuse-cmd-0001', ok: false, error: { code: 'X\u0000', message: '\ud800' } }),
    ];
    const huge = Buffer.alloc(1024 * 1024, 0x61);
    const abuse = (async () => {
      let abuser = await connectDevice(server, abuserSn, abuserSecret);
      for (const suffix of topics) {
        for (const payload of payloads) await abuser.client.publishAsync(deviceTopic(abuserSn, suffix), payload, { qos: 1 });
        // A huge payload: the embedded broker closes the connection at the packet's length; Mosquitto
        // delivers it and the ingest drops it unparsed.
        const outcome = await publishOrClose(abuser.client, deviceTopic(abuserSn, suffix), huge);
        expect(outcome).toBe(EXTERNAL_MQTT ? 'acked' : 'closed');
        if (outcome === 'closed') abuser = await connectDevice(server, abuserSn, abuserSecret, { announce: false });
      }
      await abuser.end();
    })();
    await Promise.all([abuse, steadyTelemetry([b.device, c.device], 50)]);
    await waitFor(async () => (await historyCount([b.sn, c.sn])) === 100, 20_000, 'all of B’s and C’s telemetry');
    await server.ctx.gateway.flush();
    expect(await historyCount([b.sn, c.sn])).toBe(100);
    const counters = (await stats()).counters;
    expect(counters['dropped.writeFailed'] ?? 0).toBe(0);
    if (EXTERNAL_MQTT) expect(counters['dropped.oversize']).toBeGreaterThanOrEqual(3);
    else expect(counters['publish.tooLarge']).toBeGreaterThanOrEqual(topics.length);
    // The server still answers, and B is as it reported.
    expect(await detail(b.sn)).toMatchObject({ online: true, battery: 49 });
    for (const d of [b, c]) await d.device.end();
  });

  // The limits of an external broker are its own configuration (docs/device-protocol.md, "Limits"),
  // and 200 MiB of retained messages in the machine's shared Mosquitto would outlive the test.
  it.runIf(!EXTERNAL_MQTT)('the embedded broker retains only presence, and refuses oversized publishes before buffering them', async () => {
    const sn = uniqueSn('AB');
    const secret = await registerSn(server, admin, sn, modelId);
    const retainedBefore = (await stats()).counters;
    // 200 retained 1 MiB publishes under one device's prefix, as in the report.
    const huge = Buffer.alloc(1024 * 1024, 0x62);
    let refused = 0;
    let device = await connectDevice(server, sn, secret, { announce: false });
    for (let i = 0; i < 200; i++) {
      const outcome = await publishOrClose(device.client, deviceTopic(sn, `blob/${i}`), huge, true);
      if (outcome === 'closed') {
        refused++;
        device = await connectDevice(server, sn, secret, { announce: false });
      }
    }
    // Small retained messages outside `status` are delivered but not retained; a status larger than 1 KiB is refused.
    for (let i = 0; i < 200; i++) await device.client.publishAsync(deviceTopic(sn, `note/${i}`), Buffer.alloc(32 * 1024, 0x63), { qos: 1, retain: true });
    const bigStatus = await publishOrClose(device.client, deviceTopic(sn, deviceTopics.status), JSON.stringify({ v: 1, online: true, conn: 'c'.repeat(2000) }), true);
    expect(refused).toBe(200);
    expect(bigStatus).toBe('closed');
    const after = (await stats()).counters;
    // The broker holds at most one presence per device, each at most 1 KiB.
    expect(after['broker.retained.messages']! - retainedBefore['broker.retained.messages']!).toBeLessThanOrEqual(1);
    expect(after['broker.retained.bytes']!).toBeLessThanOrEqual(after['broker.retained.messages']! * 1024);
    expect(after['publish.retainRefused']! - (retainedBefore['publish.retainRefused'] ?? 0)).toBe(200);
    // A subscriber to the device's whole prefix receives no retained blob or note.
    // (bigStatus closed the device's connection already.)
    const probe = await mqtt.connectAsync(brokerUrl(server), { clientId: sn, username: sn, password: secret, reconnectPeriod: 0 });
    const received: Array<{ topic: string; retain: boolean }> = [];
    probe.on('message', (topic, _payload, packet) => received.push({ topic, retain: packet.retain }));
    await probe.subscribeAsync(deviceTopic(sn, '#'), { qos: 1 });
    // Retained messages are sent right after the SUBACK, so a message published after it arrives after them.
    await probe.publishAsync(deviceTopic(sn, 'probe/done'), 'x', { qos: 1 });
    await waitFor(() => received.some((m) => m.topic.endsWith('/probe/done')), 10_000, 'the probe’s own message');
    expect(received.filter((m) => m.retain && !m.topic.endsWith('/status'))).toEqual([]);
    await probe.endAsync();
  });

  describe('device-auth endpoints', () => {
    const call = (path: string, body: Record<string, unknown>, headers: Record<string, string> = brokerAuthHeaders) =>
      server.api<{ result: string; is_superuser: boolean }>('POST', path, { body, headers });

    it('answer an unknown SN exactly like a known SN with a wrong secret', async () => {
      const known = uniqueSn('AB');
      const secret = await registerSn(server, admin, known, modelId);
      const unknown = uniqueSn('AB');
      const wrongSecret = `${secret.slice(0, -4)}abcd`;
      const a = await call('/api/device-auth/mqtt', { username: known, password: wrongSecret, clientid: known });
      const b = await call('/api/device-auth/mqtt', { username: unknown, password: wrongSecret, clientid: unknown });
      expect({ status: a.status, body: a.body }).toEqual({ status: 403, body: { result: 'deny', is_superuser: false } });
      expect({ status: b.status, body: b.body }).toEqual({ status: a.status, body: a.body });
      expect(b.headers.get('content-length')).toBe(a.headers.get('content-length'));
      expect((await call('/api/device-auth/mqtt', { username: known, password: secret, clientid: known })).status).toBe(200);
    });

    it('refuse callers without the shared secret, whatever they ask, and rate-limit them', async () => {
      const known = uniqueSn('AB');
      const secret = await registerSn(server, admin, known, modelId);
      const paths = ['/api/device-auth/mqtt', '/api/device-auth/mqtt/acl', '/api/device-auth/mqtt/superuser'];
      const body = { username: known, password: secret, clientid: known, topic: deviceTopic(known, 'telemetry'), acc: 2 };
      for (const path of paths) {
        for (const headers of [{}, { 'x-device-auth-secret': 'not-the-secret-at-all' }] as Array<Record<string, string>>) {
          const res = await call(path, body, headers);
          expect(res.status).toBe(401);
          expect(res.body).toEqual({ result: 'deny', is_superuser: false });
        }
      }
      // Anonymous probing runs into the limit (DEVICE_AUTH_RATE_LIMIT, 20 per minute and IP)…
      const statuses: number[] = [];
      for (let i = 0; i < 25; i++) statuses.push((await call(paths[0]!, { username: uniqueSn('AB'), password: 'x', clientid: '' }, {})).status);
      expect(statuses).toContain(429);
      expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
      // …while the broker, with the secret, is never limited.
      for (let i = 0; i < 30; i++) expect((await call(paths[0]!, { username: known, password: secret, clientid: known })).status).toBe(200);
      expect((await call(paths[1]!, body)).status).toBe(200);
    });

    it('are documented for brokers, with the secret header', async () => {
      const doc = (await (await fetch(`${server.url}/api/docs/json`)).json()) as { paths: Record<string, { post?: { parameters?: Array<{ in: string; name: string }> } }> };
      for (const path of ['/api/device-auth/mqtt', '/api/device-auth/mqtt/acl', '/api/device-auth/mqtt/superuser']) {
        expect(doc.paths[path]?.post?.parameters).toContainEqual(expect.objectContaining({ in: 'header', name: 'x-device-auth-secret' }));
      }
    });

    it('do not exist unless DEVICE_AUTH_SECRET is set', async () => {
      const bare = await startDeviceServer({ config: { deviceAuthSecret: undefined } });
      try {
        for (const path of ['/api/device-auth/mqtt', '/api/device-auth/mqtt/acl', '/api/device-auth/mqtt/superuser']) {
          expect((await bare.api('POST', path, { body: { username: 'X', password: 'y' }, headers: brokerAuthHeaders })).status).toBe(404);
        }
      } finally {
        await bare.close();
      }
    });
  });
});

/** Publishes at QoS 1: 'acked' when the broker acknowledges, 'closed' when it closes the connection instead. */
function publishOrClose(client: mqtt.MqttClient, topic: string, payload: string | Buffer, retain = false): Promise<'acked' | 'closed'> {
  return new Promise((resolve) => {
    const onClose = () => {
      // Forget the unacknowledged publish (reconnectPeriod 0: this client is done).
      client.end(true);
      resolve('closed');
    };
    client.once('close', onClose);
    client.publish(topic, payload, { qos: 1, retain }, (err) => {
      client.off('close', onClose);
      resolve(err ? 'closed' : 'acked');
    });
  });
}
