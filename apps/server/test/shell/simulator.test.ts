import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startFleet, type Fleet } from '../../../fleet-sim/src/fleet.ts';
import { deviceState } from '../../src/devices/devices.sql.ts';
import type { TestServer } from '../harness.ts';
import { brokerUrl, startDeviceServer, waitFor } from '../devices/fixtures.ts';
import { ShellClient } from './fixtures.ts';

/** The fleet simulator's mowers answer the shell from their own simulated state. */
describe('remote shell on a simulated mower', () => {
  let server: TestServer;
  let admin: string;
  let fleet: Fleet;

  beforeAll(async () => {
    server = await startDeviceServer();
    admin = await server.login();
    fleet = await startFleet({ count: 1, mqttUrl: brokerUrl(server), apiUrl: server.url, token: admin, snPrefix: 'SHSIM', seed: 7, log: () => {} });
    await fleet.waitConnected(1, 20_000);
  });
  afterAll(async () => {
    await fleet?.stop();
    await server?.close();
  });

  it('runs the mower shell commands over the real protocol', async () => {
    const sn = fleet.mowers[0]!.sn;
    await waitFor(async () => {
      await server.ctx.gateway.flush();
      const [row] = await server.ctx.db.select({ online: deviceState.online }).from(deviceState).where(eq(deviceState.sn, sn));
      return row?.online;
    }, 20_000, 'mower online');
    const { client, answer } = await ShellClient.open(server, admin, sn);
    expect(answer).toMatchObject({ type: 'opened', sn });
    await client.waitForText('# ');
    for (const [command, expected] of [
      ['status', 'activity'],
      ['battery', 'returns to the station at'],
      // A mower may have lost its fix for a moment (GNSS faults are simulated too).
      ['gps', /heading|no position fix/],
      ['ota status', 'running'],
      ['config set cutting.height_mm 33', 'cutting.height_mm = 33'],
      ['cat /etc/hostname', sn.toLowerCase()],
    ] as const) {
      client.type(`${command}\r`);
      await client.waitForText(expected);
    }
    client.type('exit\r');
    expect(await client.next(['closed'])).toMatchObject({ reason: 'exit' });
  });
});
