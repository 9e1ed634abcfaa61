import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { startAppUsers, startFleet, type AppUsers, type Fleet } from '@mowerline/fleet-sim';
import type { TestServer } from '../../server/test/harness.ts';
import { brokerUrl } from '../../server/test/devices/fixtures.ts';
import { createCampaign, releasedFirmware, waitFor } from '../../server/test/ota/fixtures.ts';
import { productModels } from '../../server/src/product/product.sql.ts';
import { startConsoleServer } from './harness.ts';
import { mower, raise } from './devices.helpers.ts';
import { createStaff } from './pages.helpers.ts';

export const OPERATOR = { username: 'ruth', password: 'Garden#Path7', name: 'Ruth Whitfield-Okonkwo' };

export interface SeededConsole {
  server: TestServer;
  close(): Promise<void>;
}

async function ok<T>(res: Promise<{ body: { code: number; data: T } }>): Promise<T> {
  const { body } = await res;
  if (body.code !== 0) throw new Error(JSON.stringify(body));
  return body.data;
}

/**
 * A console server with real data in every table, put there the way production gets it: the
 * fleet simulator registers and connects mowers (devices, SNs, map, task runs, faults), their
 * owners sign up and bind through the app API (end users, user log, a feedback ticket), staff are created through
 * the admin API (staff, e-mail log, system log), a firmware is rolled out to a model (campaigns,
 * upgrade log), and one mower reports a fault of every severity (exception events).
 */
export async function startSeededConsole(): Promise<SeededConsole> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mowerline-seeded-e2e-'));
  const server = await startConsoleServer({ dataDir, telemetryFlushMs: 50, otaTickMs: 200 });
  // Firmware download links must point at this server's real port.
  server.config.publicUrl = server.url;
  const admin = await server.login();
  let fleet: Fleet | undefined;
  let owners: AppUsers | undefined;
  const close = async () => {
    await owners?.stop().catch(() => {});
    await fleet?.stop().catch(() => {});
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await createStaff(server, admin, { username: OPERATOR.username, name: OPERATOR.name, email: 'ruth@example.com', role: 'user', password: OPERATOR.password });
    await createStaff(server, admin, { username: 'wiremu', name: 'Wiremu Tane', email: 'wiremu@example.com', role: 'admin' });
    // Fast simulated time: task runs and faults show up within seconds.
    fleet = await startFleet({ count: 8, apiUrl: server.url, mqttUrl: brokerUrl(server), token: admin, seed: 3, timeScale: 60, faultsPerHour: 30 });
    await fleet.waitConnected(undefined, 30_000);
    owners = await startAppUsers({ apiUrl: server.url, gardens: fleet.gardens, pairingCodes: fleet.pairingCodes, adminToken: admin, seed: 3, visitEverySeconds: 600 });
    // A feedback ticket with a screenshot, filed through the app API as the app does.
    const writer = owners.users[0]!;
    await writer.signIn();
    await writer.fileFeedback(() => 0.01);
    // A run started from the app: scheduled slots may be hours of simulated time away (at night
    // in the gardens' time zones), so the run list never depends on the hour the suite runs at.
    // A refusal (the mower is mowing already) is fine: the run list is checked below either way.
    await waitFor(async () => (await writer.startMowing().catch(() => 'refused')) !== null, 60_000, 500);

    // A fault of every severity, from one mower of ours (the simulator picks codes at random).
    const [x9] = await server.ctx.db.select({ id: productModels.id }).from(productModels).where(eq(productModels.code, 'ML-X9'));
    const faulty = await mower(server, admin, x9!.id, 'E2ESEED00001', { battery: 12, state: 'error' }, { region: 'europe', owner: 'Alexandria Montgomery-Featherstonehaugh' });
    for (const severity of ['critical', 'major', 'minor', 'warning'] as const) {
      await raise(faulty, `E2E_${severity.toUpperCase()}_FAULT`, severity, `Blade motor reported a ${severity} fault in the front lawn`);
    }
    await faulty.client.endAsync();

    // A firmware rolled out to the X9s: artifacts, a campaign and upgrade-log rows.
    const artifactId = await releasedFirmware(server, admin, x9!.id, '3.3.0');
    await createCampaign(server, admin, { artifactId, name: 'X9 spring update 3.3.0' });
    await waitFor(async () => {
      const log = await server.api<{ total: number }>('GET', '/api/admin/device/upgrade-log', { token: admin });
      return log.body.code === 0 && log.body.data.total > 0;
    });
    await ok(
      server.api('POST', '/api/admin/product/app-version', {
        token: admin,
        body: { platform: 'android', version: '2.4.0', build: 240, changelogEn: 'Faster pairing', changelogZh: '更快配对', downloadUrl: 'https://example.com/app.apk' },
      }),
    );
    // Something in every table the fleet feeds: task runs and app users take a moment.
    // Generous: on a busy machine the simulator's first runs take a while.
    for (const path of ['/api/admin/end-user', '/api/admin/task/run']) {
      await waitFor(async () => ((await server.api<{ total: number }>('GET', path, { token: admin })).body.data?.total ?? 0) > 0, 150_000, 500).catch(() => {
        throw new Error(`seeding: nothing in ${path} yet`);
      });
    }
  } catch (err) {
    await close();
    throw err;
  }
  return { server, close };
}
