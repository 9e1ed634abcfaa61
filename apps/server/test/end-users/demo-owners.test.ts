import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fleet } from '@mowerline/fleet-sim';
import type { EndUserPage } from '@mowerline/contract';
import { startDemoFleet } from '../../src/demo/demo-fleet.ts';
import type { TestServer } from '../harness.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../smtp.ts';
import { APP_PASSWORD, startEndUserServer, uniqueEmail } from './fixtures.ts';

/**
 * The `npm start` demo makes its owners' accounts in-process: signing them up through the public
 * form from 127.0.0.1 used up that address's limits, so a real sign-up from the same host was
 * refused right after start. The limits here are lower than the demo's number of owners.
 */
describe('the demo owners leave the sign-up limits of their host alone', () => {
  let smtp: SmtpReceiver;
  let server: TestServer;
  let fleet: Fleet | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mowerline-demo-owners-'));
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startEndUserServer(smtp, { config: { dataDir, fleetSize: 8, formLimitPerIp: 1, loginRateLimitPerMinute: 1 } });
    fleet = await startDemoFleet(server.app, server.ctx);
  }, 120_000);
  afterAll(async () => {
    await fleet?.stop();
    await server?.close();
    await smtp?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates and confirms more owners than the limits allow, and a real sign-up from 127.0.0.1 still works', async () => {
    expect(fleet).toBeDefined();
    const admin = await server.login();
    const owners = await server.api<EndUserPage>('GET', '/api/admin/end-user?pageSize=100', { token: admin });
    expect(owners.body.data.total).toBeGreaterThan(1);
    expect(owners.body.data.list.every((u) => u.status === 'active')).toBe(true);

    const email = uniqueEmail('neighbour');
    const res = await server.api('POST', '/api/app/v1/user/register', { body: { email, password: APP_PASSWORD, name: 'Real Person', country: 'DE', locale: 'en-US', timeZone: 'Europe/Berlin' } });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    await smtp.waitFor((m) => m.to.includes(email));
  }, 60_000);
});
