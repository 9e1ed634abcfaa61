import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.ts';
import type { TestServer } from '../harness.ts';
import { confirmedAppUser } from '../end-users/fixtures.ts';
import { addStaff, PASSWORD, startAuthServer } from './fixtures.ts';

const sessionOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;

/**
 * Two server nodes on one database, each with its principal cache on (SESSION_CACHE_MS, a minute
 * here so that only an invalidation can end an entry during a test). On PostgreSQL (TEST_DATABASE_URL)
 * node B has its own pool and listening connection, so a change made through node A reaches B's
 * cache only as a NOTIFY; on PGlite (one process only) both nodes share the embedded database.
 * Each case warms B's cache, changes access through A (or raw SQL), and expects B's very next request to see it.
 */
describe('the principal cache across two nodes', () => {
  let a: TestServer;
  let b: TestServer;
  let bDatabase: Database;
  let admin: string;
  const config = { sessionCacheMs: 60_000 };

  beforeAll(async () => {
    a = await startAuthServer({ config });
    bDatabase = a.databaseUrl ? await openDatabase({ url: a.databaseUrl, dataDir: 'unused', onError: () => {} }) : a.database;
    b = await startAuthServer({ database: bDatabase, keepDatabase: true, config });
    admin = await a.login();
  });
  afterAll(async () => {
    await b?.close();
    if (a?.databaseUrl) await bDatabase?.close();
    await a?.close();
  });

  /** Signs `username` in on node B and uses the token there twice, so B holds the session in its cache. */
  async function warmOnB(username: string, path = '/api/admin/user/info') {
    const token = await b.login(username, PASSWORD);
    for (let i = 0; i < 2; i++) expect((await b.api('GET', path, { token })).status).toBe(200);
    return token;
  }

  it('a sign-out on node A ends the session on node B at once', async () => {
    await addStaff(a, admin, 'cache-out');
    const token = await warmOnB('cache-out');
    expect((await a.api('POST', '/api/admin/user/logout', { token })).body.code).toBe(0);
    expect((await b.api('GET', '/api/admin/user/info', { token })).status).toBe(401);
  });

  it('a session revoked from the user centre on node A is refused by node B at once', async () => {
    await addStaff(a, admin, 'cache-revoke');
    const token = await warmOnB('cache-revoke');
    const other = await a.login('cache-revoke', PASSWORD);
    expect((await a.api('POST', '/api/admin/user/sessions/revoke-others', { token: other })).body.code).toBe(0);
    expect((await b.api('GET', '/api/admin/user/info', { token })).status).toBe(401);
    expect((await b.api('GET', '/api/admin/user/info', { token: other })).status).toBe(200);
  });

  it('disabling a staff member on node A signs them out on node B at once', async () => {
    const kim = await addStaff(a, admin, 'cache-disable');
    const token = await warmOnB('cache-disable');
    expect((await a.api('PUT', '/api/admin/user', { token: admin, body: { id: kim.id, status: 'disabled' } })).body.code).toBe(0);
    expect((await b.api('GET', '/api/admin/user/info', { token })).status).toBe(401);
  });

  it('a role given on node A is seen by node B at once (taking one away ends the sessions, as above)', async () => {
    const lee = await addStaff(a, admin, 'cache-promote');
    const token = await warmOnB('cache-promote');
    expect((await b.api('GET', '/api/admin/user', { token })).status).toBe(403);
    expect((await a.api('PUT', '/api/admin/user', { token: admin, body: { id: lee.id, role: 'admin' } })).body.code).toBe(0);
    expect((await b.api('GET', '/api/admin/user', { token })).status).toBe(200);
  });

  it('a session revoked by raw SQL from outside any node is refused by node B at once', async () => {
    await addStaff(a, admin, 'cache-raw');
    const token = await warmOnB('cache-raw');
    const revoke = `update sessions set revoked_at = now() where id = '${sessionOf(token)}'`;
    if (a.databaseUrl) {
      // Another client altogether: only the trigger's NOTIFY can tell node B.
      const outside = new pg.Client({ connectionString: a.databaseUrl });
      await outside.connect();
      await outside.query(revoke);
      await outside.end();
      // The NOTIFY travels on B's listening connection: wait for it, not for a time.
      await vi.waitFor(async () => expect((await b.api('GET', '/api/admin/user/info', { token })).status).toBe(401));
    } else {
      await a.database.db.execute(sql.raw(revoke));
      expect((await b.api('GET', '/api/admin/user/info', { token })).status).toBe(401);
    }
  });

  it('an app user disabled on node A is refused by node B at once', async () => {
    const user = await confirmedAppUser(a, admin);
    for (let i = 0; i < 2; i++) expect((await b.api('GET', '/api/app/v1/user/profile', { token: user.token })).status).toBe(200);
    expect((await a.api('POST', `/api/admin/end-user/${user.id}/disable`, { token: admin, body: { reason: 'abuse' } })).body.code).toBe(0);
    expect((await b.api('GET', '/api/app/v1/user/profile', { token: user.token })).status).toBe(401);
  });

  it.runIf(process.env.TEST_DATABASE_URL)('a node whose listening connection dropped serves no stale principal, and listens again', async () => {
    await addStaff(a, admin, 'cache-drop');
    const token = await warmOnB('cache-drop');
    const lost: unknown[] = [];
    const stop = bDatabase.accessChanges.subscribe((change) => change === undefined && lost.push(change));
    const outside = new pg.Client({ connectionString: a.databaseUrl });
    await outside.connect();
    try {
      await outside.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = 'mowerline access listener'`);
      await vi.waitFor(() => expect(lost).toHaveLength(1));
      // Made while B may not be listening: B must not answer from what it cached before.
      await outside.query(`update sessions set revoked_at = now() where id = '${sessionOf(token)}'`);
      expect((await b.api('GET', '/api/admin/user/info', { token })).status).toBe(401);
      await vi.waitFor(() => expect(bDatabase.accessChanges.live).toBe(true), { timeout: 10_000 });
      // Listening again: a change made elsewhere reaches B's cache as before.
      const fresh = await warmOnB('cache-drop');
      await outside.query(`update sessions set revoked_at = now() where id = '${sessionOf(fresh)}'`);
      await vi.waitFor(async () => expect((await b.api('GET', '/api/admin/user/info', { token: fresh })).status).toBe(401));
    } finally {
      stop();
      await outside.end();
    }
  });
});
