import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { migrationsFolder, openDatabase } from '../src/db/client.ts';

/**
 * Vitest global set-up: migrates one database per run and lets every suite's fresh database start
 * as a copy of it (harness.ts), instead of creating a cluster and replaying every migration per
 * server. PGlite: a dumped data directory in a temporary file. PostgreSQL (TEST_DATABASE_URL): a
 * template database for `CREATE DATABASE … TEMPLATE`. Each run builds its own from the current
 * migrations, so a template is never stale.
 */
export async function setup(): Promise<() => Promise<void>> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const name = `mowerline_template_${process.pid}_${randomBytes(4).toString('hex')}`;
    await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ url: url.toString(), dataDir: 'unused', onError: () => {} });
    await database.close();
    process.env.MOWERLINE_TEST_PG_TEMPLATE = name;
    return () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'mowerline-template-'));
  const file = path.join(dir, 'pglite.tar');
  const db = await PGlite.create('memory://');
  await migrate(drizzle({ client: db }), { migrationsFolder });
  writeFileSync(file, Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer()));
  await db.close();
  process.env.MOWERLINE_TEST_PGLITE_TEMPLATE = file;
  return async () => rmSync(dir, { recursive: true, force: true });
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
