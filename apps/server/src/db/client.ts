import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { PGlite } from '@electric-sql/pglite';
import type { Pool, PoolClient } from 'pg';
import * as schema from './schema.ts';
import { PGliteThread } from './pglite-thread.ts';
import { AccessChangeFeed, watchPgClient, type AccessFeed } from './access-changes.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Changes to sessions and accounts, for the principal caches (access-changes.ts). */
  accessChanges: AccessFeed;
  ping(): Promise<boolean>;
  /** Calls `onNotify` for each NOTIFY on `channel` (any node's commit); answers how to stop listening. */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export const migrationsFolder = path.resolve(import.meta.dirname, '../../drizzle');

/**
 * The one database client: PostgreSQL when a URL is given, else embedded PGlite in `dataDir`
 * (or in memory when `dataDir` is 'memory://') on its own thread. Migrations run before it is handed out.
 */
export async function openDatabase(opts: {
  url?: string;
  dataDir: string;
  onError?: (err: Error) => void;
  /** An embedded database starts as a copy of this dumped data directory (tests: one migrated template). */
  pgliteTemplate?: string;
}): Promise<Database> {
  if (opts.url) {
    const { Pool } = (await import('pg')).default;
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const { listenForAccessChanges } = await import('./access-listener.ts');
    const pool = new Pool({ connectionString: opts.url, max: 10 });
    // An idle connection dropped by the server (restart, failover, terminated backend) must not crash
    // the process: the pool replaces it, and the next query reconnects.
    const onError = opts.onError ?? ((e) => console.warn(`database connection lost: ${e.message}`));
    pool.on('error', onError);
    const accessChanges = new AccessChangeFeed(false);
    pool.on('connect', (client) => watchPgClient(client, accessChanges));
    const db = drizzle(pool, { schema });
    await migrateLocked(pool, (client) => migrate(drizzle(client, { schema }), { migrationsFolder }));
    const listener = listenForAccessChanges(opts.url, accessChanges, onError);
    await listener.ready;
    const { listenOnPostgres } = await import('./notifications.ts');
    const channels = new Set<{ close(): Promise<void> }>();
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      accessChanges,
      ping: () => ping(db as unknown as Db),
      async listen(channel, onNotify) {
        const l = listenOnPostgres(opts.url!, channel, onNotify, onError);
        channels.add(l);
        return async () => {
          channels.delete(l);
          await l.close();
        };
      },
      close: async () => {
        await Promise.all([...channels].map((l) => l.close()));
        await listener.close();
        await pool.end();
      },
    };
  }
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const memory = opts.dataDir.startsWith('memory://');
  const dir = memory ? opts.dataDir : path.join(opts.dataDir, 'pglite');
  if (!memory) mkdirSync(dir, { recursive: true });
  // Every writer of an embedded database is in this process and goes through this client, so
  // watching its statements is enough: the feed is always live.
  const accessChanges = new AccessChangeFeed(true);
  const client = await PGliteThread.create(dir, accessChanges, opts.pgliteTemplate);
  // drizzle's PGlite driver calls only what PGliteThread implements (query, exec, transaction).
  const db = drizzle({ client: client as unknown as PGlite, schema });
  await migrate(db, { migrationsFolder });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    accessChanges,
    ping: () => ping(db as unknown as Db),
    async listen(channel, onNotify) {
      let on = true;
      await client.listen(channel, () => on && onNotify());
      return async () => {
        on = false;
      };
    },
    close: () => client.close(),
  };
}

/** Any fixed number: the advisory lock every node takes around its migrations ("mowermig"). */
const MIGRATION_LOCK = 0x6d6f7765726d6967n;

/**
 * Runs the migrations under a session-level advisory lock on one connection. Nodes started
 * together (a deployment, a rolling upgrade) would otherwise all find the same migrations missing
 * and run them side by side, and all but one fail; with the lock the first applies them and the
 * others wait, then find nothing left to do. The lock goes with the connection if a node dies.
 */
async function migrateLocked(pool: Pool, run: (client: PoolClient) => Promise<void>): Promise<void> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK.toString()]);
    try {
      await run(client);
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK.toString()]).catch(() => (broken = true));
    }
  } finally {
    // A connection whose unlock failed may still hold the lock: close it rather than pool it.
    client.release(broken);
  }
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
