import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../harness.ts';
import { startServer } from '../harness.ts';

/**
 * Issue 12, item 7: a CSV export that fails after its header (the status line and the header row
 * already sent) must not end as a clean, short file the client cannot tell from a complete one.
 * Fastify destroys the socket when a streamed body errors after the headers, so the chunked answer
 * never completes and the download fails; this guards that for both exports, compressed or not.
 */
describe('a CSV export that fails after its header', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer();
    token = await server.login();
  });
  afterAll(() => server?.close());

  /**
   * Puts a view in place of `table` whose rows come only after a pause and then an error: the
   * export has sent its status and header row by the time its first page fails.
   */
  async function failLater(table: string) {
    const db = server.database.db;
    await db.execute(sql.raw(`alter table ${table} rename to ${table}_away`));
    await db.execute(
      sql.raw(`create function ${table}_fail() returns boolean language plpgsql stable as $$ begin perform pg_sleep(0.3); raise exception 'export failure test'; end $$`),
    );
    await db.execute(sql.raw(`create view ${table} as select * from ${table}_away where ${table}_fail()`));
    return async () => {
      await db.execute(sql.raw(`drop view ${table}`));
      await db.execute(sql.raw(`drop function ${table}_fail()`));
      await db.execute(sql.raw(`alter table ${table}_away rename to ${table}`));
    };
  }

  for (const [path, table] of [
    ['/api/admin/device/export', 'devices'],
    ['/api/admin/device/upgrade-log/export', 'ota_jobs'],
  ] as const) {
    for (const encoding of ['identity', 'gzip, br']) {
      it(`${path} (accept-encoding ${encoding}): a failed download, not a short file`, async () => {
        const restore = await failLater(table);
        try {
          const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': encoding } });
          const outcome = await res.text().then(
            (text) => `complete: ${JSON.stringify(text.slice(0, 80))}`,
            (err: Error) => `failed: ${err.message}`,
          );
          // Either the failure came before the first byte (a compressed stream holds the header row
          // back), and the answer is the 500 envelope, or the header was out and the download fails.
          if (res.status === 200) expect(outcome).toMatch(/^failed/);
          else expect(res.status).toBe(500);
        } finally {
          await restore();
        }
      });
    }
  }
});
