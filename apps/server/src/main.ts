import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { buildApp } from './app.ts';
import { ensureInitialAdmin } from './staff/bootstrap.ts';
import { startDemoFleet } from './demo/demo-fleet.ts';

/** The composition root: configuration → database → HTTP server, and a clean stop on signals. */
async function main() {
  const config = loadConfig();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  // The first password is printed last, after the start-up lines, so it does not scroll away.
  let firstPassword = '';
  await ensureInitialAdmin(database.db, config, (text) => (firstPassword = text));
  const { app, ctx } = await buildApp(config, database);
  let demoFleet: Awaited<ReturnType<typeof startDemoFleet>>;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: finishing in-flight requests');
    // app.close(): no new requests, those in flight answered, the event deliveries in flight
    // finished, the modules stopped in reverse order (the gateway writes every message it
    // acknowledged); then the database. A stop that failed says so and exits non-zero.
    let failed = false;
    try {
      await demoFleet?.stop();
      await app.close();
    } catch (err) {
      failed = true;
      app.log.error({ err }, 'stopping failed');
    } finally {
      await database.close().catch((err: unknown) => {
        failed = true;
        app.log.error({ err }, 'closing the database failed');
      });
      if (!failed) app.log.info('stopped cleanly');
      process.exit(failed ? 1 : 0);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      // The embedded MQTT broker says which of its ports it was; otherwise it is the HTTP port.
      const mqttPortTaken = 'port' in (err as object) && (err as { port: number }).port !== config.port;
      console.error(mqttPortTaken ? (err as Error).message : `Port ${config.port} is already in use: stop what holds it or set PORT.`);
    } else {
      console.error(err);
    }
    await database.close();
    process.exit(1);
  }
  app.log.info(`console and API on ${config.publicUrl} (database: ${database.kind}${database.kind === 'pglite' ? ` in ${config.dataDir}` : ''})`);
  // The demo fleet (FLEET_SIZE, default 50; 0 turns it off): simulated mowers on the real API and broker.
  if (config.fleetSize > 0 && !stopping) {
    demoFleet = await startDemoFleet(app, ctx).catch((err: unknown) => {
      app.log.error({ err }, 'the demo fleet did not start');
      return undefined;
    });
    // A signal that arrived while the fleet was starting found nothing to stop yet.
    if (stopping) await demoFleet?.stop();
  }
  // The log writes through process.stdout too (http/request-log.ts), so this comes after it.
  if (firstPassword) process.stdout.write(`${firstPassword}\n`);
}

void main();
