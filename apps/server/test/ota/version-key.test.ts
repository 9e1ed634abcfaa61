import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { compareVersions } from '@mowerline/contract';
import { rowsOf } from '../../src/ota/job-steps.ts';
import { startServer, type TestServer } from '../harness.ts';

/** Number parts: small, padded with zeros, up to 15 digits (exact in a double), empty or not a number. */
const part = fc.oneof(
  fc.nat(20).map(String),
  fc.nat(9999).map(String),
  fc.tuple(fc.nat(3), fc.nat(99)).map(([zeros, n]) => '0'.repeat(zeros) + String(n)),
  fc.bigInt(0n, 999_999_999_999_999n).map(String),
  fc.constantFrom('', 'a', 'rc1', '1a'),
);
/** Pre-release and build text: the pattern's alphabet and a few letters beyond ASCII (below the surrogates). */
const label = fc.string({ unit: fc.constantFrom(...'0123456789azAZ.-', 'é', 'ß', '中'), maxLength: 8 });
const version = fc.oneof(
  { weight: 1, arbitrary: fc.constant('') },
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.array(part, { minLength: 1, maxLength: 4 }), fc.option(label), fc.option(label))
      .map(([parts, pre, build]) => parts.join('.') + (pre === null ? '' : `-${pre}`) + (build === null ? '' : `+${build}`)),
  },
  // Odd strings from the same characters, in any arrangement (no JavaScript number spelling: no 'x', 'e', spaces).
  { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom(...'0123456789.-+aZ'), maxLength: 12 }) },
);

/** ota_version_key (migration 0017) must order versions exactly as compareVersions does, on PGlite and PostgreSQL. */
describe('SQL version key', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });

  async function sqlOrder(versions: string[]): Promise<number[][]> {
    const rows = rowsOf<{ i: number; j: number; c: number }>(
      await server.ctx.db.execute(sql`
        with v as (select v, i, ota_version_key(v) collate "C" as k from unnest(${sql.param(versions)}::text[]) with ordinality as u(v, i))
        select a.i::int as i, b.i::int as j, case when a.k < b.k then -1 when a.k > b.k then 1 else 0 end as c
        from v a cross join v b`),
    );
    const out = versions.map(() => versions.map(() => Number.NaN));
    for (const r of rows) out[Number(r.i) - 1]![Number(r.j) - 1] = Number(r.c);
    return out;
  }

  it('orders every pair of random version strings as compareVersions does', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(version, { minLength: 2, maxLength: 25 }), async (versions) => {
        const order = await sqlOrder(versions);
        versions.forEach((a, i) => versions.forEach((b, j) => expect([a, b, order[i]![j]]).toEqual([a, b, Math.sign(compareVersions(a, b))])));
      }),
      { numRuns: 200 },
    );
  });

  it('keeps the cases that decide targets', async () => {
    const versions = ['', '0.0.0', '1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-beta', '1.0.0', '1.0.0+build.7', '1.0', '1.2.9', '1.10.0', '10.0.0'];
    const order = await sqlOrder(versions);
    // '' first; a pre-release before its release; build metadata and a missing patch change nothing; 10 after 9.
    expect(order[0]!.slice(1)).toEqual(versions.slice(1).map(() => -1));
    expect([order[3]![5], order[5]![6], order[5]![7], order[8]![9], order[9]![10]]).toEqual([-1, 0, 0, -1, -1]);
  });

  it("keeps each mower's key with its firmware: on insert, on a firmware change, through an upsert, untouched otherwise", async () => {
    const db = server.ctx.db;
    const [model] = rowsOf<{ id: number }>(await db.execute(sql`insert into product_models (code, name) values ('KEYTEST', 'Key test') returning id`));
    await db.execute(sql`insert into devices (sn, model_id, secret_hash, secret_salt) values ('KEY0001', ${model!.id}, 'x', 'x')`);
    const key = async () => rowsOf<{ k: string; same: boolean }>(await db.execute(sql`select firmware_key as k, firmware_key = ota_version_key(firmware) as same from device_state where sn = 'KEY0001'`))[0]!;
    await db.execute(sql`insert into device_state (sn, firmware) values ('KEY0001', '1.2.3')`);
    expect(await key()).toEqual({ k: rowsOf<{ k: string }>(await db.execute(sql`select ota_version_key('1.2.3') as k`))[0]!.k, same: true });
    await db.execute(sql`update device_state set firmware = '1.10.0' where sn = 'KEY0001'`);
    expect((await key()).same).toBe(true);
    // The telemetry writer's shape: an upsert that sets the firmware again, changed or not.
    for (const firmware of ['1.10.0', '2.0.0-rc.1']) {
      await db.execute(sql`insert into device_state (sn, firmware, battery) values ('KEY0001', ${firmware}, 50)
        on conflict (sn) do update set firmware = excluded.firmware, battery = excluded.battery`);
      expect((await key()).same).toBe(true);
    }
    await db.execute(sql`update device_state set battery = 10 where sn = 'KEY0001'`);
    expect((await key()).same).toBe(true);
  });
});
