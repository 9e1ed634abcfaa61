import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import { DeviceCredentials, hashSecret } from '../../src/gateway/device-credentials.ts';
import type { TestServer } from '../harness.ts';
import { startDeviceServer } from './fixtures.ts';

const N = 2000;
const sn = (i: number) => `CRED${String(i).padStart(5, '0')}`;
const secret = (i: number) => `secret-of-mower-${i}-${'x'.repeat(20)}`;

describe('device credentials in a reconnect storm', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startDeviceServer();
    const db = server.ctx.db;
    await db.execute(sql`insert into product_models (id, code, name) values (9201, 'CRED', 'Cred')`);
    const rows = Array.from({ length: N }, (_, i) => ({ sn: sn(i), enabled: i % 10 !== 9, ...hashSecret(secret(i)) }));
    await db.execute(sql`insert into devices (sn, model_id, secret_hash, secret_salt, enabled)
      select * from unnest(${sql.param(rows.map((r) => r.sn))}::text[], ${sql.param(rows.map(() => 9201))}::int[],
        ${sql.param(rows.map((r) => r.secretHash))}::text[], ${sql.param(rows.map((r) => r.secretSalt))}::text[], ${sql.param(rows.map((r) => r.enabled))}::bool[])`);
  }, 120_000);
  afterAll(() => server.close());

  it('answers every connect of the fleet at once correctly, with a handful of queries', async () => {
    let queries = 0;
    const db = server.ctx.db;
    // Counts the lookups: every query the checker makes starts with db.select.
    const counted = new Proxy(db, {
      get(target, key, receiver) {
        if (key === 'select') queries++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    }) as Db;
    const credentials = new DeviceCredentials(counted);
    const answers = await Promise.all(
      Array.from({ length: N + 2 }, (_, i) => {
        if (i === N) return credentials.check('CRED99999', secret(1), 'CRED99999');
        if (i === N + 1) return credentials.check(sn(1), secret(1), 'someone-else');
        return credentials.check(sn(i), i % 7 === 3 ? 'wrong-secret' : secret(i), sn(i));
      }),
    );
    const expected = Array.from({ length: N }, (_, i) => (i % 7 === 3 ? 'secret' : i % 10 === 9 ? 'disabled' : 'ok'));
    expect(answers).toEqual([...expected, 'unknown', 'clientId']);
    expect(queries).toBeLessThanOrEqual(3);
    // The same SN asked twice in one storm gets one answer each.
    expect(await Promise.all([credentials.check(sn(2), secret(2), sn(2)), credentials.check(sn(2), secret(3), sn(2))])).toEqual(['ok', 'secret']);
  });
});
