import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, asc, eq } from 'drizzle-orm';
import { startAppUsers, startFleet, type Fleet } from '@mowerline/fleet-sim';
import { openSession, revokeSession } from '../auth/session.service.ts';
import type { AppContext } from '../context.ts';
import { staffUsers } from '../staff/staff.sql.ts';

/** Where the server itself is reachable from inside its own process. */
function localUrl(app: FastifyInstance, host: string): string {
  const { port } = app.server.address() as AddressInfo;
  const h = ['0.0.0.0', '::', ''].includes(host) ? '127.0.0.1' : host;
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}`;
}

/**
 * The `npm start` demo: FLEET_SIZE simulated mowers, registered through the real admin API and
 * connected to the real broker. The simulator gets a short service session of the first active
 * administrator, minted in-process (no password anywhere) and revoked as soon as the SNs are
 * registered and the owners' app accounts confirmed; its calls are audited like any other.
 */
export async function startDemoFleet(app: FastifyInstance, ctx: AppContext): Promise<Fleet | undefined> {
  const [admin] = await ctx.db
    .select({ id: staffUsers.id })
    .from(staffUsers)
    .where(and(eq(staffUsers.role, 'admin'), eq(staffUsers.status, 'active')))
    .orderBy(asc(staffUsers.id))
    .limit(1);
  if (!admin) return undefined;
  // openSession records where a session came from; this one comes from the server process itself.
  const origin = { ip: '127.0.0.1', headers: { 'user-agent': 'mowerline-fleet-sim (demo fleet)' } } as unknown as FastifyRequest;
  const { accessToken } = await openSession(app, ctx, origin, admin.id, false, { service: true });
  const { sid } = app.jwt.decode<{ sid: string }>(accessToken)!;
  try {
    const endpoints = ctx.gateway.endpoints();
    const apiUrl = localUrl(app, ctx.config.host);
    const fleet = await startFleet({
      count: ctx.config.fleetSize,
      apiUrl,
      mqttUrl: endpoints.externalUrl ?? `mqtt://127.0.0.1:${endpoints.tcpPort}`,
      token: accessToken,
      secretsFile: path.join(ctx.config.dataDir, 'fleet-sim', 'secrets.json'),
      // Five times real speed: mowing cycles, returns and faults show up within minutes.
      timeScale: 5,
      faultsPerHour: 1,
      log: (line) => app.log.info(line),
    });
    // The mowers' owners sign up through the real app API; support (this session) confirms them,
    // then they bind with the labels' pairing codes and keep using the app.
    const owners = await startAppUsers({
      apiUrl,
      gardens: fleet.gardens,
      pairingCodes: fleet.pairingCodes,
      adminToken: accessToken,
      secretsFile: path.join(ctx.config.dataDir, 'fleet-sim', 'app-users.json'),
      visitEverySeconds: 300,
      log: (line) => app.log.info(line),
    }).catch((err: unknown) => {
      app.log.error({ err }, 'demo app users failed to start');
      return undefined;
    });
    return {
      ...fleet,
      stop: async () => {
        await owners?.stop();
        await fleet.stop();
      },
    };
  } finally {
    await revokeSession(ctx, sid);
  }
}
