import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.ts';

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

  it('applies every migration exactly once when four nodes open the database together', async () => {
    const results = await Promise.allSettled(Array.from({ length: 4 }, () => openDatabase({ url, dataDir: 'unused', onError: () => {} })));
    for (const r of results) if (r.status === 'fulfilled') opened.push(r.value);
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok', 'ok']);

    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const applied = await c.query<{ n: string }>('select count(*) as n from drizzle.__drizzle_migrations');
    const lockHeld = await c.query<{ n: string }>("select count(*) as n from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())");
    await c.end();
    expect(Number(applied.rows[0]!.n)).toBe(migrations.length);
    // Every node let go of the lock once it was done.
    expect(Number(lockHeld.rows[0]!.n)).toBe(0);
  });
});
