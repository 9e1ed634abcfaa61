import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { like, sql } from 'drizzle-orm';
import { ALWAYS_COUNTED, COUNT_CACHE_MS, countMatches } from '../../src/devices/count.ts';
import { devices } from '../../src/devices/devices.sql.ts';
import { startServer, type TestServer } from '../harness.ts';

/** 2,000 devices C0000001…C0002000: `C00001…` matches 100 of them (C0000100…C0000199), `C000…` all. */
describe('list totals: small ones counted every time, large ones cached briefly per filter', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
    await server.ctx.db.execute(sql`insert into product_models (id, code, name) values (9101, 'COUNT-A', 'Count A')`);
    await server.ctx.db.execute(sql`
      insert into devices (sn, model_id, secret_hash, secret_salt)
      select 'C' || lpad(g::text, 7, '0'), 9101, 'unused', 'unused' from generate_series(1, 2000) g`);
  }, 60_000);
  afterAll(() => server.close());
  afterEach(() => vi.restoreAllMocks());

  const count = (prefix: string) =>
    countMatches(server.ctx.db, () => server.ctx.db.select({ sn: devices.sn }).from(devices).where(like(devices.sn, `${prefix}%`)).$dynamic());
  const add = (sn: string) => server.ctx.db.execute(sql`insert into devices (sn, model_id, secret_hash, secret_salt) values (${sn}, 9101, 'unused', 'unused')`);

  it('shows a new row in a small total at once', async () => {
    expect(await count('C00001')).toEqual({ total: 100, exact: true });
    await add('C00001ZZ');
    expect(await count('C00001')).toEqual({ total: 101, exact: true });
  });

  it('keeps a large total per filter until it expires', async () => {
    const before = await count('C000');
    expect(before.total).toBeGreaterThan(ALWAYS_COUNTED);
    await add('C000YYYY');
    // Same filter: the cached total. Another filter: counted now.
    expect(await count('C000')).toEqual(before);
    expect(await count('C00')).toEqual({ total: before.total + 1, exact: true });
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + COUNT_CACHE_MS + 1);
    expect(await count('C000')).toEqual({ total: before.total + 1, exact: true });
  });
});
