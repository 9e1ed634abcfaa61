/**
 * OTA targeting at scale: mowers of one model seeded in a fresh PostgreSQL
 * database with set-based SQL, then campaign preview and creation through the real HTTP API for a
 * model target whose version range takes about every mower, and for a narrower range.
 *
 *   BENCH_OTA_DEVICES=1000000      mowers of the model (SNs B00000001…), all offline
 *   BENCH_OTA_PREVIEWS=3           previews per case (the median is reported)
 *   BENCH_OTA_KEEP_DB=0            1: keep the database afterwards (its URL is printed) for EXPLAIN
 *
 * Firmware of mower g: '' (never reported) when g mod 100 = 0; '2.0.0-rc.<g mod 3>' when
 * g mod 100 = 1; else '1.<g mod 10>.<g mod 7>'. Artifact A (3.0.0) may only be installed from
 * 1.1.0, so the 1.0.x mowers are skipped as BELOW_MIN_VERSION; artifact B (3.1.0) is newer, so its
 * campaign supersedes A's queued jobs of the mowers it targets.
 *   wide:   A, model range 1.0.0 … 2.0.0 (every mower that reported a version)
 *   narrow: B, model range 1.3.0 … 1.4.99 (about a fifth of them)
 * Each campaign is paused as soon as it exists, so its ticks do not run beside the next figure.
 */
import pg from 'pg';
import { signIn } from './lib/http.ts';
import { freshDatabase } from './lib/pg.ts';
import { machine } from './lib/proc.ts';
import { startServerProcess } from './lib/server-process.ts';
import { log, median, ms, num, table, main, sleep, type BenchResult } from './lib/stats.ts';

const DEVICES = Number(process.env.BENCH_OTA_DEVICES ?? 1_000_000);
const PREVIEWS = Number(process.env.BENCH_OTA_PREVIEWS ?? 3);
const KEEP_DB = process.env.BENCH_OTA_KEEP_DB === '1';
const TARGET_MS = 10_000;

async function seed(url: string): Promise<{ modelId: number; artifacts: { wide: number; narrow: number }; seconds: number }> {
  const t = performance.now();
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  await db.query('set synchronous_commit = off');
  await db.query("set maintenance_work_mem = '512MB'");
  // Secondary indexes are rebuilt from their own definitions after the bulk insert.
  const indexes = await db.query<{ name: string; def: string }>(
    `select i.relname as name, pg_get_indexdef(i.oid) as def from pg_index x join pg_class i on i.oid = x.indexrelid
     where x.indrelid in ('devices'::regclass, 'device_state'::regclass) and not x.indisprimary and not x.indisunique`,
  );
  for (const i of indexes.rows) await db.query(`drop index ${i.name}`);
  const [model] = (await db.query<{ id: number }>(`insert into product_models (code, name) values ('BENCHOTA', 'Bench OTA') returning id`)).rows;
  const modelId = model!.id;
  const step = 250_000;
  for (let from = 1; from <= DEVICES; from += step) {
    const to = Math.min(DEVICES, from + step - 1);
    await db.query(
      `insert into devices (sn, model_id, secret_hash, secret_salt, region, owner)
       select 'B' || lpad(g::text, 8, '0'), $1, 'x', 'x', 'eu', 'owner' || (g % 1000) || '@bench.test' from generate_series(${from}, ${to}) g`,
      [modelId],
    );
    await db.query(
      `insert into device_state (sn, firmware)
       select 'B' || lpad(g::text, 8, '0'),
              case when g % 100 = 0 then '' when g % 100 = 1 then '2.0.0-rc.' || (g % 3) else '1.' || (g % 10) || '.' || (g % 7) end
       from generate_series(${from}, ${to}) g`,
    );
  }
  const artifact = async (version: string, minFrom: string) =>
    (
      await db.query<{ id: number }>(
        `insert into ota_artifacts (kind, model_id, version, min_from_version, status, file_name, file_path, size, sha256, signature, released_at)
         values ('firmware', $1, $2, $3, 'released', 'bench.bin', 'bench.bin', 1024, repeat('0', 64), 'AAAA', now()) returning id`,
        [modelId, version, minFrom],
      )
    ).rows[0]!.id;
  const artifacts = { wide: await artifact('3.0.0', '1.1.0'), narrow: await artifact('3.1.0', '') };
  for (const i of indexes.rows) await db.query(i.def);
  await db.query('vacuum analyze devices');
  await db.query('vacuum analyze device_state');
  await db.end();
  return { modelId, artifacts, seconds: (performance.now() - t) / 1000 };
}

async function post<T>(apiUrl: string, token: string, p: string, body: unknown): Promise<{ ms: number; data: T }> {
  const t = performance.now();
  const res = await fetch(apiUrl + p, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  const took = performance.now() - t;
  const envelope = JSON.parse(text) as { code: number; data: T };
  if (envelope.code !== 0) throw new Error(`${p}: ${text.slice(0, 300)}`);
  return { ms: took, data: envelope.data };
}

interface Preview {
  total: number;
  willUpdate: number;
  skipped: Record<string, number>;
  offline: number;
}

export async function run(): Promise<BenchResult> {
  const db = await freshDatabase('ota');
  // Ticks every minute at most: the figures are the requests', not the engine's.
  const server = await startServerProcess({ databaseUrl: db.url, config: { otaTickMs: 60_000 } });
  try {
    const seeded = await seed(db.url);
    log(`ota: seeded ${num(DEVICES, 0)} mowers in ${num(seeded.seconds, 0)} s`);
    const token = await signIn(server.url);
    const cases = [
      { name: 'wide: 1.0.0 … 2.0.0', artifactId: seeded.artifacts.wide, target: { type: 'model', minVersion: '1.0.0', maxVersion: '2.0.0' } },
      { name: 'narrow: 1.3.0 … 1.4.99', artifactId: seeded.artifacts.narrow, target: { type: 'model', minVersion: '1.3.0', maxVersion: '1.4.99' } },
    ];
    const rows: Array<Array<string | number>> = [];
    const headline: BenchResult['headline'] = [];
    const loads: string[] = [];
    for (const c of cases) {
      const body = { name: `bench ${c.name}`, artifactId: c.artifactId, target: c.target, phases: [1, 10, 100] };
      loads.push(machine().load);
      const previews: number[] = [];
      let preview: Preview | undefined;
      for (let i = 0; i < PREVIEWS; i++) {
        const r = await post<Preview>(server.url, token, '/api/admin/ota/campaign/preview', body);
        previews.push(r.ms);
        preview = r.data;
      }
      const created = await post<{ id: number; total: number; counts: Record<string, number> }>(server.url, token, '/api/admin/ota/campaign', body);
      await post(server.url, token, `/api/admin/ota/campaign/${created.data.id}/pause`, {});
      const superseded = await server.sql<{ n: number }>(`select count(*)::int as n from ota_jobs where reason = 'SUPERSEDED'`);
      const skipped = Object.entries(preview!.skipped).map(([k, n]) => `${k} ${num(n, 0)}`).join(', ') || '–';
      log(`ota: ${c.name}: preview ${ms(median(previews))}, create ${ms(created.ms)} for ${num(created.data.total, 0)} targets`);
      rows.push([
        c.name,
        num(preview!.total, 0),
        num(preview!.willUpdate, 0),
        skipped,
        ms(median(previews)),
        ms(created.ms),
        num(created.data.total, 0),
        num(superseded[0]?.n ?? 0, 0),
      ]);
      headline.push({
        what: `ota: campaign creation, ${c.name} (${num(created.data.total, 0)} targets)`,
        value: ms(created.ms),
        target: `< ${num(TARGET_MS / 1000, 0)} s`,
        met: created.ms < TARGET_MS,
      });
      // The paused campaign's last tick may still be running: let it end before the next figure.
      await sleep(3000);
    }
    const markdown = [
      `Seeded in a fresh PostgreSQL database: ${num(DEVICES, 0)} offline mowers of one model (1 % without a version, 1 % on a 2.0.0 release candidate, the rest on 1.0.0 … 1.9.6); ${num(seeded.seconds, 0)} s.`,
      `Through the HTTP API, signed in as an administrator: preview (median of ${PREVIEWS}) and creation (once; its time includes the answer's state counts). ` +
        `The narrow campaign's artifact is newer, so it supersedes the wide campaign's queued jobs of its devices ("superseded" counts them after it). Load average (1 / 5 / 15 min) before each case: ${loads.join('; ')}.`,
      '',
      table(['case', 'targets (preview)', 'will update', 'skipped', 'preview', 'create', 'jobs created', 'superseded'], rows),
    ].join('\n');
    return { name: 'OTA targeting at scale', markdown, headline };
  } finally {
    await server.stop();
    if (KEEP_DB) log(`ota: kept ${db.url}`);
    else await db.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main(run);
