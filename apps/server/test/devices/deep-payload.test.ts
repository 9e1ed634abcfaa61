import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { deviceTopic, deviceTopics, errors, type GatewayStats } from '@mowerline/contract';
import { deviceState } from '../../src/devices/devices.sql.ts';
import type { TestServer } from '../harness.ts';
import { clearRetained, connectDevice, createModel, registerSn, startDeviceServer, telemetryPayload, uniqueSn, waitFor } from './fixtures.ts';

/** Arrays nested `depth` deep, as text: JSON.stringify itself overflows its stack near 5,000 levels. */
const deepArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/**
 * A device payload nesting JSON 20,000 deep (40 KB, under the 64 KiB payload limit): a command
 * answered with it reached the staff member's answer, where writing it overflowed the stack (a
 * 500). Every upstream payload deeper than 64 levels is now dropped as malformed before parsing.
 */
describe('deeply nested device payloads', () => {
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

  const stats = async () => (await server.api<GatewayStats>('GET', '/api/admin/device/gateway-stats', { token: admin })).body.data.counters;

  it('a command answered with a result 20,000 levels deep is no answer: the call times out (504), never a 500', async () => {
    const sn = uniqueSn();
    const device = await connectDevice(server, sn, await registerSn(server, admin, sn, modelId));
    await device.client.subscribeAsync(deviceTopic(sn, deviceTopics.cmdReq), { qos: 1 });
    device.client.on('message', (_topic, payload) => {
      const req = JSON.parse(payload.toString()) as { id: string };
      void device.publish(deviceTopics.cmdRes, `{"v":1,"id":"${req.id}","ok":true,"result":${deepArrays(20_000)}}`);
    });
    await waitFor(async () => (await server.ctx.db.select().from(deviceState).where(eq(deviceState.sn, sn)))[0]?.online, 10_000, 'online');
    const before = await stats();
    const res = await server.api('POST', `/api/admin/device/${sn}/command`, { token: admin, body: { name: 'ping', timeoutMs: 1500 } });
    expect([res.status, res.body.code]).toEqual([504, errors.DEVICE_COMMAND_TIMEOUT.code]);
    expect(((await stats())['dropped.json'] ?? 0) - (before['dropped.json'] ?? 0)).toBeGreaterThanOrEqual(1);
    await device.end();
  });

  it('telemetry carrying a value 20,000 levels deep is dropped and counted; the device goes on', async () => {
    const sn = uniqueSn();
    const device = await connectDevice(server, sn, await registerSn(server, admin, sn, modelId));
    const before = await stats();
    await device.publish(deviceTopics.telemetry, `${JSON.stringify(telemetryPayload({ battery: 7 })).slice(0, -1)},"extra":${deepArrays(20_000)}}`);
    await device.telemetry({ battery: 43 });
    await waitFor(async () => (await server.ctx.db.select().from(deviceState).where(eq(deviceState.sn, sn)))[0]?.battery === 43, 10_000, 'the next telemetry');
    expect(((await stats())['dropped.json'] ?? 0) - (before['dropped.json'] ?? 0)).toBeGreaterThanOrEqual(1);
    expect(device.client.connected).toBe(true);
    await device.end();
  });
});
