import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppUsers, startFleet, type AppUsers, type Fleet } from '@mowerline/fleet-sim';
import type { EndUserPage } from '@mowerline/contract';
import { startServer, type TestServer } from '../harness.ts';
import { brokerUrl, waitFor } from '../devices/fixtures.ts';

describe('the fleet simulator plays app users through the real app API', () => {
  let server: TestServer;
  let fleet: Fleet;
  let owners: AppUsers;
  let admin: string;
  beforeAll(async () => {
    server = await startServer();
    admin = await server.login();
    fleet = await startFleet({ count: 6, apiUrl: server.url, mqttUrl: brokerUrl(server), token: admin, snPrefix: 'OWN', extensions: () => [] });
    owners = await startAppUsers({ apiUrl: server.url, gardens: fleet.gardens, pairingCodes: fleet.pairingCodes, adminToken: admin, visitEverySeconds: 1 });
  });
  afterAll(async () => {
    await owners?.stop();
    await fleet?.stop();
    await server?.close();
  });

  it('signs owners up, has support confirm them, and binds every mower with its pairing code', async () => {
    expect(fleet.pairingCodes.size).toBe(6);
    const page = await waitFor(async () => {
      const res = await server.api<EndUserPage>('GET', '/api/admin/end-user?hasDevice=true&pageSize=100', { token: admin });
      const bound = res.body.data.list.reduce((n, u) => n + u.deviceCount, 0);
      return bound >= 6 ? res.body.data : undefined;
    }, 20_000, 'all mowers bound');
    expect(page.list.every((u) => u.status === 'active')).toBe(true);
    expect(page.list.length).toBe(owners.users.length);
    // Owners live where their mowers are: the profile's country follows the home coordinates.
    const first = owners.users[0]!.plan;
    expect(page.list.find((u) => u.email === first.email)?.country).toBe(first.country);
  });
});
