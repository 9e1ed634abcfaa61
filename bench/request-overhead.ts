/**
 * Per-request overhead: what a signed-in request costs beyond its own query. 10,000
 * devices seeded in a fresh PostgreSQL database; two server processes on it, one with the principal
 * cache off (SESSION_CACHE_MS=0: the session is checked in the database on every request) and one
 * with it on; autocannon alternates between them on the device list and a device detail, in
 * back-to-back pairs (which goes first alternates), so both see the same machine load. Then a CPU profile of the cached server
 * under the same loop shows what is left per request (serialization, validation, routing).
 *
 *   BENCH_REQ_DEVICES=10000      devices seeded
 *   BENCH_REQ_SECONDS=10         duration of each autocannon run
 *   BENCH_REQ_CONNECTIONS=10     concurrent connections
 *   BENCH_REQ_ROUNDS=2           back-to-back pairs per endpoint
 *   BENCH_REQ_CACHE_MS=5000      SESSION_CACHE_MS of the cached server
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { findProfile, inclusiveShare, summarizeProfile } from './lib/cpu-profile.ts';
import { cannon, getBody, signIn } from './lib/http.ts';
import { freshDatabase } from './lib/pg.ts';
import { startServerProcess } from './lib/server-process.ts';
import { log, main, ms, num, ratio, table, type BenchResult } from './lib/stats.ts';

const DEVICES = Number(process.env.BENCH_REQ_DEVICES ?? 10_000);
const SECONDS = Number(process.env.BENCH_REQ_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_REQ_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_REQ_ROUNDS ?? 2);
const CACHE_MS = Number(process.env.BENCH_REQ_CACHE_MS ?? 5000);

async function seed(url: string) {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  await db.query(`insert into product_models (id, code, name) values (9001, 'BENCH-S1', 'Bench S1'), (9002, 'BENCH-S2', 'Bench S2')`);
  await db.query(
    `insert into devices (sn, model_id, secret_hash, secret_salt, region, owner, created_at)
     select 'D' || lpad(g::text, 7, '0'), 9001 + g % 2, 'unused', 'unused', (array['europe','asia','americas'])[g % 3 + 1], 'owner' || (g % 5000), now() - make_interval(mins => g)
     from generate_series(1, ${DEVICES}) g`,
  );
  await db.query(
    `insert into device_state (sn, online, last_seen_at, telemetry_at, state, activity, battery, firmware, lat, lng, heading, rssi, blade_rpm)
     select 'D' || lpad(g::text, 7, '0'), g % 4 = 0, now() - make_interval(secs => g), now() - make_interval(secs => g),
            (array['idle','mowing','returning','charging','paused','error','updating'])[g % 7 + 1], 'unknown', g % 101, '2.0.3',
            35 + (g % 2500) / 100.0, -10 + (g % 13000) / 100.0, g % 360, -60 - g % 30, 0
     from generate_series(1, ${DEVICES}) g`,
  );
  await db.query('analyze');
  await db.end();
}

/** The response serializer fastify-type-provider-zod compiles: the closure whose next line calls `safeEncode`. */
const serializerLines = new Map<string, number>();
function isSerializer(url: string, line: number): boolean {
  if (!serializerLines.has(url)) {
    const lines = readFileSync(fileURLToPath(url), 'utf8').split('\n');
    serializerLines.set(url, lines.findIndex((l) => l.includes('safeEncode(schema, data)')) - 1);
  }
  return serializerLines.get(url) === line;
}

const sn = (i: number) => `D${String(i).padStart(7, '0')}`;

export async function run(): Promise<BenchResult> {
  const db = await freshDatabase('request');
  const profDir = mkdtempSync(path.join(tmpdir(), 'mowerline-request-prof-'));
  const uncached = await startServerProcess({ databaseUrl: db.url, config: { sessionCacheMs: 0 } });
  const cached = await startServerProcess({ databaseUrl: db.url, config: { sessionCacheMs: CACHE_MS } }, profDir);
  let stopped = false;
  // Stopping writes the cached server's CPU profile; a stopped child must not be asked twice.
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await Promise.all([uncached.stop(), cached.stop()]);
  };
  try {
    await seed(db.url);
    log(`request-overhead: seeded ${num(DEVICES, 0)} devices`);
    const servers = { uncached: { url: uncached.url, token: await signIn(uncached.url) }, cached: { url: cached.url, token: await signIn(cached.url) } };
    const cases = [
      { name: 'device list, first page', path: () => '/api/admin/device?page=1&pageSize=20' },
      { name: 'device detail (random SN)', path: () => `/api/admin/device/${sn(1 + Math.floor(Math.random() * DEVICES))}` },
    ];
    const rows: string[][] = [];
    for (const c of cases) {
      for (const s of Object.values(servers)) {
        await getBody(s.url, c.path(), s.token);
        // Warm-up (JIT, pool connections), not measured.
        await cannon(s.url, s.token, c.path, CONNECTIONS, 2);
      }
      for (let round = 1; round <= ROUNDS; round++) {
        const load = loadavg()[0]!;
        // Alternate which server goes first, so neither always runs on the calmer half of a pair.
        const measure = (s: (typeof servers)['cached']) => cannon(s.url, s.token, c.path, CONNECTIONS, SECONDS);
        let off: Awaited<ReturnType<typeof measure>>;
        let on: typeof off;
        if (round % 2 === 1) {
          off = await measure(servers.uncached);
          on = await measure(servers.cached);
        } else {
          on = await measure(servers.cached);
          off = await measure(servers.uncached);
        }
        log(`request-overhead: ${c.name} round ${round}: ${num(off.requests.average, 0)} → ${num(on.requests.average, 0)} req/s`);
        rows.push([
          c.name,
          String(round),
          num(load, 1),
          `${num(off.requests.average, 0)} (p99 ${ms(off.latency.p99)})`,
          `${num(on.requests.average, 0)} (p99 ${ms(on.latency.p99)})`,
          `**${ratio(on.requests.average, off.requests.average)}**`,
        ]);
      }
    }
    await stop();
    const profile = findProfile(profDir);
    const summary = profile ? summarizeProfile(profile, 12) : undefined;
    // The steps around the handler, each with everything it calls (frames of their own files).
    const steps = profile
      ? inclusiveShare(profile, {
          'response serialization (zod encode + JSON.stringify)': (f) => f.url.includes('fastify-type-provider-zod') && isSerializer(f.url, f.lineNumber),
          'input validation (validation.ts)': (f) => f.url.endsWith('/http/validation.ts'),
          'session check (principal reader)': (f) => f.url.endsWith('/http/auth.ts'),
          'SQL building (drizzle-orm)': (f) => f.url.includes('node_modules/drizzle-orm/') && /build|toSQL|mapSelect|getSQL/.test(f.functionName),
        })
      : undefined;
    const markdown = [
      `${num(DEVICES, 0)} devices in a fresh PostgreSQL database; two server processes on it, the principal cache off (\`SESSION_CACHE_MS=0\`) and on (${num(CACHE_MS, 0)} ms); autocannon ${CONNECTIONS} connections × ${SECONDS} s, the two servers measured back to back in each round.`,
      '',
      table(['endpoint', 'round', 'load (1 min)', 'cache off: req/s (p99)', 'cache on: req/s (p99)', 'on ÷ off'], rows),
      '',
      ...(summary
        ? [
            `CPU profile of the cached server over all its runs (${num(summary.idlePercent, 0)} % idle), self time in % of busy time:`,
            '',
            table(['package', '% busy'], summary.packages.map((p) => [p.name, num(p.percentOfBusy, 1)])),
            '',
            'Steps of a request with everything they call, in % of busy time:',
            '',
            table(['step', '% busy (inclusive)'], Object.entries(steps ?? {}).map(([name, share]) => [name, num(share, 1)])),
            '',
            table(['frame', '% busy'], summary.frames.map((f) => [f.name, num(f.percentOfBusy, 1)])),
          ]
        : []),
    ].join('\n');
    return { name: 'Per-request overhead (session check, serialization)', markdown, headline: [] };
  } finally {
    await stop().catch(() => {});
    rmSync(profDir, { recursive: true, force: true });
    await db.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main(run);
