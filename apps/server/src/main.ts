import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { buildApp } from './app.ts';
import { ensureInitialAdmin } from './staff/bootstrap.ts';

/** The composition root: configuration → database → HTTP server, and a clean stop on signals. */
async function main() {
  const config = loadConfig();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  await ensureInitialAdmin(database.db, config, (text) => process.stdout.write(`${text}\n`));
  const { app } = await buildApp(config, database);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: finishing in-flight requests');
    try {
      await app.close();
    } finally {
      await database.close();
      app.log.info('stopped cleanly');
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      console.error(`Port ${config.port} is already in use: stop what holds it or set PORT.`);
    } else {
      console.error(err);
    }
    await database.close();
    process.exit(1);
  }
  app.log.info(`console and API on ${config.publicUrl} (database: ${database.kind}${database.kind === 'pglite' ? ` in ${config.dataDir}` : ''})`);
}

void main();
