import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { DeviceEvent, DevicePage, DeviceSummary } from '@mowerline/contract';
import { deviceState } from '../../server/src/devices/devices.sql.ts';
import { systemLogs } from '../../server/src/system-log/system-log.sql.ts';
import type { TestServer } from '../../server/test/harness.ts';
import { brokerAuthHeaders, brokerUrl, clearRetained, EXTERNAL_MQTT, startDeviceServer, waitFor } from '../../server/test/devices/fixtures.ts';
import { startFleet, type Fleet } from '../src/index.ts';

describe('fleet simulator against the platform', () => {
  let server: TestServer;
  let token: string;
  let fleet: Fleet;
  let dir: string;
  const prefix = `F${Date.now().toString(36).toUpperCase().slice(-5)}`;
  beforeAll(async () => {
    server = await startDeviceServer();
    token = await server.login();
    dir = mkdtempSync(path.join(tmpdir(), 'fleet-'));
    fleet = await startFleet({
      count: 6,
      apiUrl: server.url,
      mqttUrl: brokerUrl(server),
      token,
      snPrefix: prefix,
      seed: 42,
      timeScale: 20,
      faultsPerHour: 0,
      rainPerHour: 0,
      keepaliveS: 2,
      backoffBaseMs: 200,
      secretsFile: path.join(dir, 'secrets.json'),
    });
    await fleet.waitConnected();
  });
  afterAll(async () => {
    await fleet?.stop();
    await server.close();
    await clearRetained(fleet.mowers.map((m) => m.sn));
    rmSync(dir, { recursive: true, force: true });
  });

  const device = async (sn: string) => (await server.api<DeviceSummary & { recentEvents: DeviceEvent[] }>('GET', `/api/admin/device/${sn}`, { token })).body.data;
  const stateOf = async (sn: string) => (await server.ctx.db.select().from(deviceState).where(eq(deviceState.sn, sn)))[0];

  it('registers its SNs through the admin API and reports as real mowers', async () => {
    const page = await waitFor(async () => {
      const p = (await server.api<DevicePage>('GET', `/api/admin/device?sn=${prefix}&online=true`, { token })).body.data;
      return p.total === 6 && p.list.length === 6 && p.list.every((d) => d.position && d.battery !== null) ? p : undefined;
    }, 20_000, 'six mowers online with telemetry');
    expect(page.list.map((d) => d.sn)).toEqual(fleet.mowers.map((m) => m.sn));
    for (const d of page.list) {
      expect(['europe', 'asia']).toContain(d.region);
      expect(d.modelCode).toMatch(/^ML-/);
      const mower = fleet.mowers.find((m) => m.sn === d.sn)!;
      // The reported position is in the mower's garden, a few dozen metres from its corner.
      expect(Math.abs(d.position!.lat - mower.sim.garden.lat)).toBeLessThan(0.001);
      expect(Math.abs(d.position!.lng - mower.sim.garden.lng)).toBeLessThan(0.001);
    }
    // The import was made by the admin session the simulator was given, and audited.
    const imports = await server.ctx.db.select().from(systemLogs).where(eq(systemLogs.action, 'product.sn.import'));
    expect(imports[0]).toMatchObject({ actorName: 'admin', result: 'success', userAgent: 'mowerline-fleet-sim' });
    // The secrets the simulator keeps are readable by its owner only.
    expect(statSync(path.join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
  });

  it('raises exception events for its faults', async () => {
    const mower = fleet.mowers[0]!;
    mower.fault('STUCK');
    const detail = await waitFor(async () => {
      const d = await device(mower.sn);
      return d.recentEvents.some((e) => e.code === 'STUCK') && d.state === 'error' ? d : undefined;
    }, 10_000, 'the fault');
    expect(detail.errorCode).toBe('STUCK');
  });

  it('answers ping and reboot over the command channel, and comes back after the reboot', async () => {
    const mower = fleet.mowers[1]!;
    const ping = await server.api<{ ok: boolean; result: { pong: boolean; firmware: string } }>('POST', `/api/admin/device/${mower.sn}/command`, { token, body: { name: 'ping' } });
    expect(ping.body.data).toMatchObject({ ok: true, result: { pong: true, firmware: mower.firmware() } });
    const connId = (await stateOf(mower.sn))?.connId;
    const connects = mower.connects;
    const reboot = await server.api<{ ok: boolean; result: unknown }>('POST', `/api/admin/device/${mower.sn}/command`, { token, body: { name: 'reboot', args: { delayMs: 0 } } });
    expect(reboot.body.data).toEqual({ ok: true, result: { rebooting: true } });
    // Back online on a new connection.
    await waitFor(async () => {
      const s = await stateOf(mower.sn);
      return mower.connects > connects && s?.online && s.connId !== connId;
    }, 15_000, 'the mower back after its reboot');
  });

  it('goes offline through its last will when the connection drops, and reconnects with back-off', async () => {
    const mower = fleet.mowers[2]!;
    const connects = mower.connects;
    mower.dropConnection(1500);
    await waitFor(async () => (await stateOf(mower.sn))?.online === false, 15_000, 'offline via the will');
    await waitFor(async () => mower.connects > connects && (await stateOf(mower.sn))?.online === true, 15_000, 'reconnected');
  });

  it('restarts with the secrets it kept, and recovers a lost secret by rotation', async () => {
    await fleet.stop();
    const stored = JSON.parse(readFileSync(path.join(dir, 'secrets.json'), 'utf8')) as Record<string, string>;
    expect(Object.keys(stored)).toHaveLength(6);
    // Same fleet, no secrets file: every SN exists already, so each secret is rotated.
    fleet = await startFleet({ count: 6, apiUrl: server.url, mqttUrl: brokerUrl(server), token, snPrefix: prefix, seed: 42, faultsPerHour: 0, rainPerHour: 0 });
    await fleet.waitConnected();
    const rotations = await server.ctx.db.select().from(systemLogs).where(eq(systemLogs.action, 'product.sn.rotate-secret'));
    expect(rotations).toHaveLength(6);
    await fleet.stop();
    // The secrets stored before the rotation no longer work.
    if (EXTERNAL_MQTT) {
      // That Mosquitto has no auth plug-in: ask the HTTP back-end it would call.
      for (const [sn, secret] of Object.entries(stored)) {
        expect((await server.api('POST', '/api/device-auth/mqtt', { body: { username: sn, password: secret, clientid: sn }, headers: brokerAuthHeaders })).status).toBe(403);
      }
      return;
    }
    fleet = await startFleet({ count: 6, apiUrl: server.url, mqttUrl: brokerUrl(server), token, snPrefix: prefix, seed: 42, devices: new Map(Object.entries(stored)) });
    await waitFor(() => fleet.mowers.every((m) => m.refusals > 0), 15_000, 'old secrets refused');
    expect(fleet.connected()).toBe(0);
  });
});
