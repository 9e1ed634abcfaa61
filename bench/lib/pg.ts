import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The machine's PostgreSQL; benchmarks only ever target loopback. */
export const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A new, empty database for one benchmark, dropped afterwards (nothing else on the server is touched). */
export async function freshDatabase(prefix: string): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `mowerline_bench_${prefix}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
