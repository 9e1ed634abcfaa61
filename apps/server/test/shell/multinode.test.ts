import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, ShellSession } from '@mowerline/contract';
import type { TestServer } from '../harness.ts';
import { EXTERNAL_MQTT, startDeviceServer } from '../devices/fixtures.ts';
import { ShellClient, shellDevice } from './fixtures.ts';

/**
 * Two server nodes on one database and one external broker (CI's Mosquitto): the browser's socket
 * lives on one node, the administrator who ends the session calls the other. Only an external
 * broker can have several nodes, so this suite runs when TEST_MQTT_URL is set.
 */
describe.runIf(EXTERNAL_MQTT)('remote shell across server nodes', () => {
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    const group = `shell-${randomBytes(4).toString('hex')}`;
    // Two nodes in one process share a host and a configured port: each needs its own broker session.
    a = await startDeviceServer({ config: { mqttShareGroup: group, mqttClientId: `${group}-a` } });
    b = await startDeviceServer({ database: a.database, keepDatabase: true, config: { mqttShareGroup: group, mqttClientId: `${group}-b` } });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('carries a session on one node and ends it from the other', async () => {
    const device = await shellDevice(a);
    const token = await a.login();
    const { client, answer } = await ShellClient.open(b, token, device.sn);
    expect(answer.type).toBe('opened');
    client.type('uptime\r');
    await client.waitForText('up 1h 2m 5s');
    const id = (answer as { sessionId: string }).sessionId;
    expect((await a.api('POST', `/api/admin/device/shell/session/${id}/close`, { token })).body.code).toBe(0);
    expect(await client.next(['closed'])).toMatchObject({ reason: 'terminated' });
    const list = await a.api<Page<ShellSession>>('GET', `/api/admin/device/shell/session?sn=${device.sn}`, { token });
    expect(list.body.data.list[0]).toMatchObject({ id, status: 'closed', closeReason: 'terminated', bytesOut: client.bytes() });
    await device.end();
  });
});
