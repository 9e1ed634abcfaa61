import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, asc, eq } from 'drizzle-orm';
import { startAppUsers, startFleet, type Fleet } from '@mowerline/fleet-sim';
import { openSession, revokeSession } from '../auth/session.service.ts';
import type { AppContext } from '../context.ts';
import { staffUsers } from '../staff/staff.sql.ts';
import { seedDemoContent } from '../content/demo-content.ts';
import { createAppAccount } from '../end-users/accounts.service.ts';
import { writeUserLog } from '../end-users/user-log.service.ts';

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
 * registered and the owners' app accounts confirmed; its calls are audited like any other, with the
 * system actor ("system", no user id): nobody signed in did them.
 */
export async function startDemoFleet(app: FastifyInstance, ctx: AppContext): Promise<Fleet | undefined> {
  const [admin] = await ctx.db
    .select({ id: staffUsers.id, name: staffUsers.name })
    .from(staffUsers)
    .where(and(eq(staffUsers.role, 'admin'), eq(staffUsers.status, 'active')))
    .orderBy(asc(staffUsers.id))
    .limit(1);
  if (!admin) return undefined;
  // openSession records where a session came from; this one comes from the server process itself.
  const origin = { ip: '127.0.0.1', headers: { 'user-agent': 'mowerline-fleet-sim (demo fleet)' } } as unknown as FastifyRequest;
  // A system session: the imports at start are the server's doing, logged as "system", not as the admin.
  const { accessToken } = await openSession(app, ctx, origin, admin.id, false, { system: true });
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
    // What the app users read: a few articles, image posts and videos, published as this admin.
    const seeded = await seedDemoContent(ctx.db, ctx.config.dataDir, ctx.config.jwtSecret, { id: admin.id, name: admin.name }).catch((err: unknown) => {
      app.log.error({ err }, 'demo content was not published');
      return 0;
    });
    if (seeded > 0) app.log.info(`demo content: ${seeded} items published`);
    // The mowers' owners' accounts are made in-process, not through the public sign-up form: from
    // 127.0.0.1 they would use up that form's per-address limits, and a real sign-up from this host
    // would be refused. Support (this session) confirms them through the real API, then they bind
    // with the labels' pairing codes and keep using the app.
    const owners = await startAppUsers({
      apiUrl,
      signUp: async (account) => {
        const { id, created } = await createAppAccount(ctx, account);
        if (created) await writeUserLog(ctx, origin, { action: 'register', result: 'success', userId: id, email: account.email, country: account.country, detail: { by: 'demo' } });
        return id;
      },
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
