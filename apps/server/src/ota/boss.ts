import PgBoss from 'pg-boss';
import type { Database } from '../db/client.ts';
import type { PGliteLike } from '../db/pglite-thread.ts';
interface PoolLike {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * pg-boss on the platform's own database connection. PostgreSQL: the pool as is. PGlite has no
 * pool and no multi-statement `query`, so statements without parameters (pg-boss sends its
 * migrations and locked blocks that way) go through `exec`, whose last result is the answer.
 */
export function bossDatabase(database: Database): PgBoss.Db {
  const client = (database.db as unknown as { $client: unknown }).$client;
  if (database.kind === 'postgres') {
    const pool = client as PoolLike;
    return { executeSql: (text, values) => pool.query(text, values) };
  }
  const pglite = client as PGliteLike;
  return {
    async executeSql(text, values) {
      if (values && values.length > 0) return pglite.query(text, values);
      const results = await pglite.exec(text);
      return results[results.length - 1] ?? { rows: [] };
    },
  };
}

export function createBoss(database: Database): PgBoss {
  return new PgBoss({
    db: bossDatabase(database),
    schema: 'pgboss',
    // No cron schedules here; the campaign loop reschedules itself.
    schedule: false,
    supervise: true,
    migrate: true,
  });
}
