import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fleet } from '@mowerline/fleet-sim';
import type { Page, SystemLog } from '@mowerline/contract';
import { startDemoFleet } from '../../src/demo/demo-fleet.ts';
import { startServer, type TestServer } from '../harness.ts';

/**
 * Issue 17, item 5: the demo fleet's model and SN imports at start are the server's own doing. They
 * are logged with the system actor ("system", no user id), not as the administrator whose rights
 * the set-up borrowed, before anyone signed in.
 */
describe('system actor', () => {
  let server: TestServer;
  let fleet: Fleet | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mowerline-system-actor-'));
  beforeAll(async () => {
    server = await startServer({ config: { dataDir, fleetSize: 3 } });
    fleet = await startDemoFleet(server.app, server.ctx);
  }, 120_000);
  afterAll(async () => {
    await fleet?.stop();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('logs the demo set-up as "system" with no user id, and a person as themselves', async () => {
    expect(fleet).toBeDefined();
    const admin = await server.login();
    const res = await server.api<Page<SystemLog>>('GET', '/api/admin/system/log?pageSize=100', { token: admin });
    const setup = res.body.data.list.filter((l) => l.action !== 'auth.login');
    expect(setup.map((l) => l.action)).toEqual(expect.arrayContaining(['product.sn.import']));
    for (const log of setup) expect({ action: log.action, actorId: log.actorId, actorName: log.actorName }).toEqual({ action: log.action, actorId: null, actorName: 'system' });
    const login = res.body.data.list.find((l) => l.action === 'auth.login');
    expect(login).toMatchObject({ actorName: 'admin', actorId: expect.any(Number) });
    // The actor filter finds the system's entries.
    const bySystem = await server.api<Page<SystemLog>>('GET', '/api/admin/system/log?actor=system&pageSize=100', { token: admin });
    expect(bySystem.body.data.total).toBe(setup.length);
  }, 60_000);
});
