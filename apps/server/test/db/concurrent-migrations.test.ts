import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { ensureInitialAdmin } from '../../src/staff/bootstrap.ts';

const adminUrl = process.env.TEST_DATABASE_URL;
const migrations = readdirSync(path.resolve(import.meta.dirname, '../../drizzle')).filter((f) => f.endsWith('.sql'));

/**
 * Several nodes started together on an empty PostgreSQL database (a fresh deployment, or an
 * upgrade rolled out to every node at once) each run the migrations at start; only one may apply
 * them, the others wait and find them applied. PGlite has one process by construction, so this
 * suite runs when TEST_DATABASE_URL is set.
 */
describe.runIf(adminUrl)('migrations with several nodes starting at once', () => {
  const name = `mowerline_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  let url: string;
  const opened: Database[] = [];

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(adminUrl!);
    u.pathname = `/${name}`;
    url = u.toString();
  });
  afterAll(async () => {
    await Promise.all(opened.map((d) => d.close()));
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it('applies every migration exactly once and creates one administrator when four nodes start together', async () => {
    const config = loadConfig({ NODE_ENV: 'test' }, { jwtSecret: 'unused-unused-unused-unused-unused', dataDir: '/nonexistent' });
    const printed: string[] = [];
    const start = async () => {
      const database = await openDatabase({ url, dataDir: 'unused', onError: () => {} });
      opened.push(database);
      await ensureInitialAdmin(database.db, config, (text) => printed.push(text));
    };
    const results = await Promise.allSettled(Array.from({ length: 4 }, start));
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok', 'ok']);
    // One node printed the password, the one of the one account there is.
    expect(printed).toHaveLength(1);

    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const applied = await c.query<{ n: string }>('select count(*) as n from drizzle.__drizzle_migrations');
    const admins = await c.query<{ n: string }>('select count(*) as n from staff_users');
    const lockHeld = await c.query<{ n: string }>("select count(*) as n from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())");
    await c.end();
    expect(Number(applied.rows[0]!.n)).toBe(migrations.length);
    expect(Number(admins.rows[0]!.n)).toBe(1);
    // Every node let go of the lock once it was done.
    expect(Number(lockHeld.rows[0]!.n)).toBe(0);
  });
});
