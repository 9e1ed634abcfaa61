/**
 * Mowing tasks at scale: a year of task runs for a large fleet seeded in a fresh
 * PostgreSQL database with set-based SQL (INSERT … SELECT generate_series), the 15-minute
 * roll-ups computed from those runs exactly as ingest writes them (one row per bucket of start
 * time, model and firmware; the hourly and daily levels follow by the same trigger as on ingest),
 * then the statistics and run-list endpoints under autocannon with 1 and 10 connections, each
 * next to its SQL floor and a bare route (bench/lib/endpoint-cases.ts).
 *
 *   BENCH_TASKS_MOWERS=1000000     mowers the runs belong to (SNs D0000001…)
 *   BENCH_TASKS_RUNS=10000000      runs, spread evenly over the last BENCH_TASKS_DAYS days
 *   BENCH_TASKS_DAYS=365           span of the runs' start times, ending now
 *   BENCH_TASKS_TZ=Europe/Berlin   the viewer's time zone of the overview and the daily report
 *   BENCH_TASKS_DURATION_S=5       autocannon seconds per run (4 runs per endpoint)
 *   BENCH_TASKS_CONNECTIONS=10     connections of the load run (the latency run uses 1)
 *   BENCH_TASKS_KEEP_DB=0          1: keep the database afterwards (its URL is printed) for EXPLAIN
 *   BENCH_TASKS_SHOW_SQL=0         1: log the SQL each endpoint ran (what its floor replays)
 *
 * The runs: run g belongs to mower (g·7919 mod mowers) + 1, so every mower has runs/mowers runs
 * spread over the year and ids follow start time (as ingest inserts them). Three models by SN,
 * firmware 2.0.3 → 2.1.0 → 2.2.0 over the year with a per-mower lag (a fifth of the fleet stays on 2.1.0,
 * one in 17 on 2.0.3). Triggers: schedule 70 %, app
 * 18 %, resume 7 %, console 5 %. Ended runs: completed 78 %, user_ended 8 %, interrupted 9 % (half
 * with a fault code), failed 5 % (always one); 15 catalogue codes with STUCK, BLADE_BLOCKED,
 * RAIN_DELAY and LOW_BATTERY the most common. Roll-up rows are written in bucket order, as ingest
 * appends them over time. Runs started in the last 90 minutes are still open
 * (running or paused). Paths are empty: no endpoint measured here returns them.
 * Secondary indexes of task_runs are dropped before the seed and rebuilt from their own
 * definitions afterwards (faster than maintaining them row by row); then VACUUM ANALYZE, the
 * state autovacuum keeps a table in between bursts.
 */
import pg from 'pg';
import { measureEndpoints, type EndpointCase } from './lib/endpoint-cases.ts';
import { signIn } from './lib/http.ts';
import { freshDatabase } from './lib/pg.ts';
import { startServerProcess } from './lib/server-process.ts';
import { log, num, main, type BenchResult } from './lib/stats.ts';

const MOWERS = Number(process.env.BENCH_TASKS_MOWERS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_TASKS_RUNS ?? 10_000_000);
const DAYS = Number(process.env.BENCH_TASKS_DAYS ?? 365);
const TZ = process.env.BENCH_TASKS_TZ ?? 'Europe/Berlin';
const DURATION_S = Number(process.env.BENCH_TASKS_DURATION_S ?? 5);
const CONNECTIONS = Number(process.env.BENCH_TASKS_CONNECTIONS ?? 10);
const KEEP_DB = process.env.BENCH_TASKS_KEEP_DB === '1';
const TARGET_MS = 100;

const FAULTS = [
  'STUCK', 'STUCK', 'STUCK', 'BLADE_BLOCKED', 'BLADE_BLOCKED', 'BLADE_BLOCKED', 'RAIN_DELAY', 'RAIN_DELAY', 'LOW_BATTERY', 'LOW_BATTERY',
  'LIFTED', 'UPSIDE_DOWN', 'BATTERY_OVERHEAT', 'WHEEL_MOTOR_OVERLOAD', 'OUTSIDE_WORKING_AREA', 'GNSS_FIX_LOST', 'COLLISION_SENSOR',
  'CHARGING_STATION_BLOCKED', 'ZONE_UNREACHABLE', 'MAP_INVALID',
];
const sn = (g: number) => `D${String(g).padStart(7, '0')}`;
const sqlList = (xs: string[]) => `array[${xs.map((x) => `'${x}'`).join(',')}]`;

async function seed(url: string): Promise<{ seconds: Record<string, number>; rollups: number; faultRuns: number; window: number }> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  // A benchmark's data needs no crash safety; the server's own writes keep the default.
  await db.query('set synchronous_commit = off');
  await db.query("set maintenance_work_mem = '512MB'");
  await db.query("set work_mem = '256MB'");
  const seconds: Record<string, number> = {};
  const timed = async <T extends pg.QueryResultRow>(what: string, text: string) => {
    const t = performance.now();
    const r = await db.query<T>(text);
    seconds[what] = (seconds[what] ?? 0) + (performance.now() - t) / 1000;
    return r;
  };
  const indexes = await db.query<{ name: string; def: string }>(
    `select i.relname as name, pg_get_indexdef(i.oid) as def from pg_index x join pg_class i on i.oid = x.indexrelid
     where x.indrelid = 'task_runs'::regclass and not x.indisprimary`,
  );
  for (const i of indexes.rows) await db.query(`drop index ${i.name}`);

  const step = 1_000_000;
  // One fixed "now" for the whole seed, so the last runs end where the year ends.
  const [{ t0 }] = (await db.query<{ t0: string }>(`select (now() - make_interval(days => ${DAYS}))::text as t0`)).rows as [{ t0: string }];
  const spacingS = (DAYS * 86_400) / RUNS;
  for (let from = 1; from <= RUNS; from += step) {
    const to = Math.min(RUNS, from + step - 1);
    await timed(
      'task_runs',
      `insert into task_runs (sn, run_id, model_code, firmware, owner, trigger, schedule_id, schedule_name, status, result, fault_code,
                              zones, planned_area_m2, progress_percent, area_m2, duration_s, blade_on_s, distance_m, pauses, path,
                              started_at, ended_at, last_report_at, last_seq)
       select 'D' || lpad(m::text, 7, '0'), 'r' || g, (array['BENCH-S1','BENCH-S2','BENCH-X9'])[m % 3 + 1],
              case when m % 17 = 0 or d < 120 then '2.0.3' when m % 5 = 0 or d < 270 then '2.1.0' else '2.2.0' end,
              case when m % 4 = 0 then '' else 'owner' || m || '@example.com' end,
              trig, case when trig = 'schedule' then 1 end, case when trig = 'schedule' then 'Weekdays' end,
              status, result,
              case when result = 'failed' or (result = 'interrupted' and r % 2 = 0) then (${sqlList(FAULTS)})[r2 % ${FAULTS.length} + 1] end,
              '["z1","z2"]'::jsonb, 400 + r % 300, case when result = 'completed' then 100 else r % 100 end,
              case when status = 'ended' then 200 + r * 0.3 else 0 end, case when status = 'ended' then 1800 + r * 5 else 0 end,
              case when status = 'ended' then 1600 + r * 4 else 0 end, case when status = 'ended' then 800 + r else 0 end, r % 3, '',
              started, case when status = 'ended' then started + make_interval(secs => 1800 + r * 5) end,
              case when status = 'ended' then started + make_interval(secs => 1800 + r * 5) else started + interval '5 minutes' end,
              case when status = 'ended' then 12 else 4 end
       from (
         select g, m, r, r2, started, d,
                case when r2 % 100 < 70 then 'schedule' when r2 % 100 < 88 then 'app' when r2 % 100 < 95 then 'resume' else 'console' end as trig,
                case when started > now() - interval '90 minutes' then (case when r % 5 = 0 then 'paused' else 'running' end) else 'ended' end as status,
                case when started > now() - interval '90 minutes' then null
                     when r < 780 then 'completed' when r < 860 then 'user_ended' when r < 950 then 'interrupted' else 'failed' end as result
         from (
           select g, (g::bigint * 7919 % ${MOWERS}) + 1 as m,
                  (g::bigint * 2654435761 % 1000003) % 1000 as r, (g::bigint * 40503 % 999983) as r2,
                  '${t0}'::timestamptz + make_interval(secs => (g - 1) * ${spacingS}) as started,
                  ((g - 1) * ${spacingS} / 86400)::int - (((g::bigint * 7919 % ${MOWERS}) + 1) % 30)::int as d
           from generate_series(${from}, ${to}) g
         ) s
       ) t`,
    );
    log(`tasks: seeded ${num(to, 0)} runs`);
  }
  await timed('sequence', `select setval(pg_get_serial_sequence('task_runs', 'id'), (select max(id) from task_runs))`);
  for (const i of indexes.rows) {
    await timed('indexes', i.def);
    log(`tasks: rebuilt ${i.name}`);
  }
  // The roll-ups as ingest's contribution() writes them: counted at start, results once ended.
  const rollups = await timed(
    'task_rollups',
    `insert into task_rollups (bucket, model_code, firmware, runs, ended, completed, interrupted, user_ended, faults, area_m2, duration_s)
     select to_timestamp(floor(extract(epoch from started_at) / 900) * 900), model_code, firmware,
            count(*), count(*) filter (where status = 'ended'),
            count(*) filter (where status = 'ended' and result = 'completed'),
            count(*) filter (where status = 'ended' and result in ('interrupted', 'failed')),
            count(*) filter (where status = 'ended' and result = 'user_ended'),
            count(*) filter (where status = 'ended' and fault_code is not null),
            coalesce(sum(area_m2) filter (where status = 'ended'), 0), coalesce(sum(duration_s) filter (where status = 'ended'), 0)
     from task_runs group by 1, 2, 3 order by 1`,
  );
  await timed('vacuum analyze', 'vacuum analyze task_runs');
  await timed('vacuum analyze', 'vacuum analyze task_rollups');
  await timed('vacuum analyze', 'vacuum analyze task_rollups_hourly, task_rollups_daily');
  const [{ n }] = (await db.query<{ n: number }>(`select count(*)::int as n from task_runs where fault_code is not null`)).rows as [{ n: number }];
  // What the answers must add up to: runs by start time in the viewer's last 30 days, from the runs themselves.
  const [{ window }] = (
    await db.query<{ window: number }>(
      `select count(*)::int as window from task_runs where started_at >= (date_trunc('day', now() at time zone '${TZ}') - interval '29 days') at time zone '${TZ}'`,
    )
  ).rows as [{ window: number }];
  // The trigger-kept hourly and daily levels against the 15-minute roll-ups.
  const [levels] = (
    await db.query<{ q: string; h: string; d: string }>(
      `select (select sum(runs) from task_rollups) as q, (select sum(runs) from task_rollups_hourly) as h, (select sum(runs) from task_rollups_daily) as d`,
    )
  ).rows as [{ q: string; h: string; d: string }];
  if (levels.q !== levels.h || levels.q !== levels.d) throw new Error(`roll-up levels disagree: ${JSON.stringify(levels)}`);
  await db.end();
  return { seconds, rollups: rollups.rowCount ?? 0, faultRuns: n, window };
}

export async function run(): Promise<BenchResult> {
  const db = await freshDatabase('tasks');
  // The server's migrations create the schema; then the seed fills it behind its back.
  const server = await startServerProcess({ databaseUrl: db.url, sqlFloor: true });
  try {
    const t0 = performance.now();
    const seeded = await seed(db.url);
    const seedSeconds = (performance.now() - t0) / 1000;
    log(`tasks: seeded in ${num(seedSeconds, 0)} s (${num(seeded.rollups, 0)} roll-up rows, ${num(seeded.faultRuns, 0)} runs with a fault code)`);
    const token = await signIn(server.url);
    const tz = encodeURIComponent(TZ);
    const randomSn = () => sn(1 + Math.floor(Math.random() * MOWERS));
    let fault = 0;
    const nextFault = () => FAULTS[fault++ % FAULTS.length]!;
    const report = () => {
      const now = Math.floor(Date.now() / 1000);
      return `/api/admin/statistics/task-daily-report?start_time=${now - 29 * 86_400}&end_time=${now}&tz=${tz}`;
    };
    const target = { ms: TARGET_MS, scale: `${num(RUNS, 0)} runs`, loaded: true };
    const cases: EndpointCase[] = [
      { name: `task overview (${TZ}, 30 days)`, path: () => `/api/admin/statistics/task-overview?tz=${tz}`, target },
      { name: `daily report, 30 days (${TZ})`, path: report, target },
      { name: 'run list, SN filter (random mower)', path: () => `/api/admin/task/run?sn=${randomSn()}&pageSize=20`, target },
      { name: 'run list, fault filter (code in turn)', path: () => `/api/admin/task/run?faultCode=${nextFault()}&pageSize=20`, target },
    ];
    const measured = await measureEndpoints(server, token, cases, { label: 'tasks', durationS: DURATION_S, connections: CONNECTIONS, showSql: process.env.BENCH_TASKS_SHOW_SQL === '1' });
    const { bodies } = measured;
    type Stats = { runs: number; faults: number; faultsPer100Runs: number };
    const overview = JSON.parse(bodies[0]!) as { data: { window: Stats; today: Stats; byModel: Stats[]; byFirmware: Stats[]; runningNow: number } };
    const daily = JSON.parse(bodies[1]!) as { data: { list: Array<{ runs: number }> } };
    const bySn = JSON.parse(bodies[2]!) as { data: { total: number } };
    const byFault = JSON.parse(bodies[3]!) as { data: { total: number; totalExact: boolean } };
    const sanity =
      `runs started in the viewer's last 30 days: ${num(seeded.window, 0)}; overview: ${num(overview.data.window.runs, 0)} (by model ${num(overview.data.byModel.reduce((n, m) => n + m.runs, 0), 0)}, by firmware ${num(overview.data.byFirmware.reduce((n, m) => n + m.runs, 0), 0)}), ` +
      `${overview.data.window.faultsPer100Runs} faults per 100, ${num(overview.data.today.runs, 0)} today, ${num(overview.data.runningNow, 0)} running now; ` +
      `daily report: ${daily.data.list.length} days, ${num(daily.data.list.reduce((n, d) => n + d.runs, 0), 0)} runs; ` +
      `one mower: ${bySn.data.total} runs; one fault code: ${byFault.data.totalExact ? '' : '~'}${num(byFault.data.total, 0)} runs`;
    log(`tasks: ${sanity}`);
    const seedLine = Object.entries(seeded.seconds)
      .map(([k, s]) => `${k} ${num(s, 0)} s`)
      .join(', ');
    const markdown = [
      `Seeded in a fresh PostgreSQL database: ${num(RUNS, 0)} task runs over ${DAYS} days for ${num(MOWERS, 0)} mowers (${num(seeded.faultRuns, 0)} ended by a fault code), ` +
        `${num(seeded.rollups, 0)} 15-minute roll-up rows computed from them; ${num(seedSeconds, 0)} s (${seedLine}). ` +
        `Load average (1 min) while measuring: ${measured.loads.map((l) => num(l, 1)).join(' → ')}.`,
      `Answers: ${sanity}.`,
      measured.markdown,
    ].join('\n');
    return { name: 'Tasks at scale', markdown, headline: measured.headline };
  } finally {
    await server.stop();
    if (KEEP_DB) log(`tasks: kept ${db.url}`);
    else await db.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main(run);
