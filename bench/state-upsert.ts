/**
 * The embedded database's share of ingest: the latest-state upsert of the
 * telemetry writer (gateway/batch-writer.ts, same columns and conflict rule) in PGlite, 500 rows a
 * statement over 10,000 mowers, each variant in a fresh in-memory database with the real migrations:
 *   shipped:              last_seen_at advanced at most every LAST_SEEN_RESOLUTION_S, so an update
 *                         that changes no indexed column stays on its page (HOT)
 *   last seen each time:  last_seen_at rewritten with every message, as before: every index touched
 *   generated key:        that, plus firmware_key as the generated column of migration 0018 (a
 *                         PL/pgSQL call per row)
 *
 *   BENCH_UPSERT_ROUNDS=6   rounds of 20,000 rows per variant (the median is reported)
 */
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { LAST_SEEN_RESOLUTION_S } from '../apps/server/src/devices/devices.sql.ts';
import { rowsOf } from '../apps/server/src/ota/job-steps.ts';
import { log, main, median, num, table, type BenchResult } from './lib/stats.ts';

const ROUNDS = Number(process.env.BENCH_UPSERT_ROUNDS ?? 6);
const MOWERS = 10_000;
const CHUNK = 500;

const coarse = `last_seen_at = case when device_state.last_seen_at < excluded.last_seen_at - make_interval(secs => ${LAST_SEEN_RESOLUTION_S}) then excluded.last_seen_at else device_state.last_seen_at end`;
const everyTime = 'last_seen_at = greatest(device_state.last_seen_at, excluded.last_seen_at)';
const generatedKey = [
  'drop trigger device_state_firmware_key_update on device_state',
  'drop trigger device_state_firmware_key_insert on device_state',
  'alter table device_state drop column firmware_key',
  `alter table device_state add column firmware_key text collate "C" generated always as (ota_version_key(firmware)) stored`,
  'create index device_state_firmware_key_sn on device_state (firmware_key, sn)',
];

/** µs per row of each round. */
async function variant(lastSeen: string, setup: string[]): Promise<number[]> {
  const { db, close } = await openDatabase({ dataDir: 'memory://' });
  try {
    const [model] = rowsOf<{ id: number }>(await db.execute(sql`insert into product_models (code, name) values ('BENCHUPSERT', 'Bench') returning id`));
    await db.execute(sql`insert into devices (sn, model_id, secret_hash, secret_salt) select 'U' || g, ${model!.id}, 'x', 'x' from generate_series(1, ${MOWERS}::int) g`);
    for (const statement of setup) await db.execute(sql.raw(statement));
    await db.execute(sql`insert into device_state (sn, firmware) select 'U' || g, '1.2.3' from generate_series(1, ${MOWERS}::int) g`);
    const rounds: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const started = performance.now();
      for (let from = 0; from < 2 * MOWERS; from += CHUNK) {
        const first = (from % MOWERS) + 1;
        await db.execute(sql`
          insert into device_state (sn, online, online_changed_at, last_seen_at, telemetry_at, telemetry_received_at, state, activity, battery, lat, lng, firmware)
          select 'U' || g, true, now(), clock_timestamp(), clock_timestamp(), clock_timestamp(), 'mowing', 'mowing', 50 + g % 40, 52.5, 13.4, '1.2.3'
          from generate_series(${first}::int, ${first + CHUNK - 1}::int) g
          on conflict (sn) do update set ${sql.raw(lastSeen)}, telemetry_at = excluded.telemetry_at, telemetry_received_at = excluded.telemetry_received_at,
            state = excluded.state, activity = excluded.activity, battery = excluded.battery, lat = excluded.lat, lng = excluded.lng, firmware = excluded.firmware
          where device_state.telemetry_received_at is null or device_state.telemetry_received_at <= excluded.telemetry_received_at`);
      }
      rounds.push(((performance.now() - started) * 1000) / (2 * MOWERS));
    }
    return rounds;
  } finally {
    await close();
  }
}

async function run(): Promise<BenchResult> {
  const cases = [
    { name: 'shipped: last seen every 30 s (HOT)', lastSeen: coarse, setup: [] },
    { name: 'last seen with every message', lastSeen: everyTime, setup: [] },
    { name: 'last seen with every message, generated firmware key (migration 0018)', lastSeen: everyTime, setup: generatedKey },
  ];
  const results: Array<{ name: string; us: number }> = [];
  for (const c of cases) {
    log(`state-upsert: ${c.name}`);
    results.push({ name: c.name, us: median(await variant(c.lastSeen, c.setup)) });
  }
  const shipped = results[0]!.us;
  const markdown = [
    `PGlite in memory, ${num(MOWERS, 0)} mowers, ${CHUNK} rows per upsert, median of ${ROUNDS} rounds of ${num(2 * MOWERS, 0)} rows.`,
    '',
    table(['variant', 'µs per row', '÷ shipped'], results.map((r) => [r.name, num(r.us, 1), `${num(r.us / shipped, 2)}×`])),
  ].join('\n');
  return { name: 'Latest-state upsert in PGlite', markdown, headline: [] };
}

if (import.meta.url === `file://${process.argv[1]}`) await main(run);
