import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { PGlite } from '@electric-sql/pglite';
import type { Pool, PoolClient } from 'pg';
import * as schema from './schema.ts';
import { PGliteThread } from './pglite-thread.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const migrationsFolder = path.resolve(import.meta.dirname, '../../drizzle');

/**
 * The one database client: PostgreSQL when a URL is given, else embedded PGlite in `dataDir`
 * (or in memory when `dataDir` is 'memory://') on its own thread. Migrations run before it is handed out.
 */
export async function openDatabase(opts: { url?: string; dataDir: string; onError?: (err: Error) => void }): Promise<Database> {
  if (opts.url) {
    const { Pool } = (await import('pg')).default;
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new Pool({ connectionString: opts.url, max: 10 });
    // An idle connection dropped by the server (restart, failover, terminated backend) must not crash
    // the process: the pool replaces it, and the next query reconnects.
    pool.on('error', (err) => (opts.onError ?? ((e) => console.warn(`database connection lost: ${e.message}`)))(err));
    const db = drizzle(pool, { schema });
    await migrateLocked(pool, (client) => migrate(drizzle(client, { schema }), { migrationsFolder }));
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      ping: () => ping(db as unknown as Db),
      close: () => pool.end(),
    };
  }
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const memory = opts.dataDir.startsWith('memory://');
  const dir = memory ? opts.dataDir : path.join(opts.dataDir, 'pglite');
  if (!memory) mkdirSync(dir, { recursive: true });
  const client = await PGliteThread.create(dir);
  // drizzle's PGlite driver calls only what PGliteThread implements (query, exec, transaction).
  const db = drizzle({ client: client as unknown as PGlite, schema });
  await migrate(db, { migrationsFolder });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    ping: () => ping(db as unknown as Db),
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
