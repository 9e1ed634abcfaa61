import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { PGlite } from '@electric-sql/pglite';
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
    await migrate(db, { migrationsFolder });
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

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
