/**
 * The admin API at scale: 1,000,000 devices and up to 10,000,000 history rows, 1,000,000 app users
 * (a third with mowers) and 10,000,000 user-log rows seeded in a fresh PostgreSQL database
 * (INSERT … SELECT generate_series; bench/lib/end-users-seed.ts), then each list/detail endpoint,
 * the user log and the user distribution under concurrency with autocannon, side by side with two
 * baselines:
 *   - the SQL floor: a bare Fastify route in the server process that runs the SQL one real request
 *     of that endpoint ran (captured from the server's `pg` client; bench/lib/sql-floor.ts) through
 *     the server's own pool and answers the rows. API ÷ floor at BENCH_API_CONNECTIONS is the
 *     headline: what the platform adds on top of its queries;
 *   - the bare route: the same bytes with no database at all, the upper bound of HTTP alone.
 *
 *   BENCH_API_DEVICES=1000000      devices (and their latest state)
 *   BENCH_API_HISTORY=10000000     telemetry history rows wanted
 *   BENCH_API_SEED_BUDGET_S=300    history seeding stops when this is spent (reported)
 *   BENCH_API_EVENTS=500000        exception events
 *   BENCH_API_DURATION_S=5         autocannon seconds per run (5 runs per endpoint)
 *   BENCH_API_CONNECTIONS=10       concurrent connections of the load run (the latency run uses 1)
 *   BENCH_API_USERS=1000000        app users (and their mowers: owners of D(g) up to BENCH_API_DEVICES)
 *   BENCH_API_USER_LOGS=10000000   user-log rows
 *   BENCH_API_CASES=devices,users  which groups of endpoints to measure (both are always seeded)
 *   BENCH_API_KEEP_DB=             1: keep the seeded database afterwards (its URL is logged) for EXPLAIN
 *   BENCH_API_SHOW_SQL=            1: log the SQL each endpoint ran (what its floor replays)
 */
import pg from 'pg';
import { seedEndUsers, type EndUserSeed } from './lib/end-users-seed.ts';
import { measureEndpoints, type EndpointCase } from './lib/endpoint-cases.ts';
import { getBody, signIn } from './lib/http.ts';
import { freshDatabase } from './lib/pg.ts';
import { startServerProcess } from './lib/server-process.ts';
import { log, num, main, type BenchResult } from './lib/stats.ts';

const DEVICES = Number(process.env.BENCH_API_DEVICES ?? 1_000_000);
const HISTORY = Number(process.env.BENCH_API_HISTORY ?? 10_000_000);
const SEED_BUDGET_S = Number(process.env.BENCH_API_SEED_BUDGET_S ?? 300);
const EVENTS = Number(process.env.BENCH_API_EVENTS ?? 500_000);
const DURATION_S = Number(process.env.BENCH_API_DURATION_S ?? 5);
/** One connection shows a request's own latency; ten show throughput (and queueing) under load. */
const CONNECTIONS = Number(process.env.BENCH_API_CONNECTIONS ?? 10);
const USERS = Number(process.env.BENCH_API_USERS ?? 1_000_000);
const USER_LOGS = Number(process.env.BENCH_API_USER_LOGS ?? 10_000_000);
const GROUPS = (process.env.BENCH_API_CASES ?? 'devices,users').split(',').map((g) => g.trim());

const sn = (g: number) => `D${String(g).padStart(7, '0')}`;

/**
 * Device g: model g % 2, region europe/asia/americas by g % 3, owner `owner{g % 5000}`, online when
 * g % 4 = 0, one of seven states, battery g % 101, firmware 2.1.0 for every tenth, last seen g
 * seconds ago. History: `perDevice` reports a minute apart for each device, in SN order (the
 * order the unique (sn, at) index likes). Events: one per device for the first EVENTS devices.
 */
async function seed(url: string): Promise<{ history: number; endUsers: EndUserSeed; seconds: Record<string, number> }> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  // A benchmark's data needs no crash safety; the server's own writes keep the default.
  await db.query('set synchronous_commit = off');
  await db.query("set maintenance_work_mem = '256MB'");
  const seconds: Record<string, number> = {};
  const timed = async (what: string, text: string) => {
    const t = performance.now();
    await db.query(text);
    seconds[what] = (seconds[what] ?? 0) + (performance.now() - t) / 1000;
  };
  await db.query(`insert into product_models (id, code, name) values (9001, 'BENCH-S1', 'Bench S1'), (9002, 'BENCH-S2', 'Bench S2'), (9003, 'BENCH-X9', 'Bench X9')`);
  const step = 250_000;
  for (let from = 1; from <= DEVICES; from += step) {
    const to = Math.min(DEVICES, from + step - 1);
    await timed(
      'devices',
      `insert into devices (sn, model_id, secret_hash, secret_salt, region, owner, created_at)
       select 'D' || lpad(g::text, 7, '0'), 9001 + g % 2, 'unused', 'unused',
              (array['europe','asia','americas'])[g % 3 + 1], 'owner' || (g % 5000), now() - make_interval(mins => g)
       from generate_series(${from}, ${to}) g`,
    );
    await timed(
      'device_state',
      `insert into device_state (sn, online, last_seen_at, telemetry_at, state, activity, battery, firmware, lat, lng, heading, rssi, blade_rpm)
       select 'D' || lpad(g::text, 7, '0'), g % 4 = 0, now() - make_interval(secs => g), now() - make_interval(secs => g),
              (array['idle','mowing','returning','charging','paused','error','updating'])[g % 7 + 1], 'unknown',
              g % 101, case when g % 10 = 0 then '2.1.0' else '2.0.3' end,
              35 + (g % 2500) / 100.0, -10 + (g % 13000) / 100.0, g % 360, -60 - g % 30, 0
       from generate_series(${from}, ${to}) g`,
    );
    log(`api: seeded ${num(to, 0)} devices`);
  }
  // History in chunks of 1M rows until the wanted total or the time budget is reached.
  const perDevice = Math.max(1, Math.round(HISTORY / DEVICES));
  const devicesPerChunk = Math.max(1, Math.floor(1_000_000 / perDevice));
  let history = 0;
  const started = performance.now();
  for (let from = 1; from <= DEVICES && history < HISTORY; from += devicesPerChunk) {
    if ((performance.now() - started) / 1000 > SEED_BUDGET_S) break;
    const to = Math.min(DEVICES, from + devicesPerChunk - 1);
    await timed(
      'telemetry_history',
      `insert into telemetry_history (sn, at, received_at, state, activity, battery, lat, lng, heading, blade_rpm, rssi, firmware)
       select 'D' || lpad(g::text, 7, '0'), now() - make_interval(mins => k), now() - make_interval(mins => k),
              'mowing', 'mowing', (g + k) % 101, 35 + (g % 2500) / 100.0, -10 + (g % 13000) / 100.0, 90, 3100, -67, '2.0.3'
       from generate_series(${from}, ${to}) g, generate_series(1, ${perDevice}) k`,
    );
    history += (to - from + 1) * perDevice;
    log(`api: seeded ${num(history, 0)} history rows`);
  }
  await timed(
    'device_events',
    `insert into device_events (sn, code, severity, status, message, first_at, last_at)
     select 'D' || lpad(g::text, 7, '0'),
            (array['BLADE_BLOCKED','STUCK','LIFTED','GNSS_FIX_LOST','UPSIDE_DOWN','LOW_BATTERY'])[g % 6 + 1],
            (array['major','major','major','minor','critical','warning'])[g % 6 + 1],
            case when g % 10 < 6 then 'cleared' when g % 10 < 8 then 'acknowledged' else 'active' end,
            'Seeded event', now() - make_interval(secs => g * 7), now() - make_interval(secs => g * 5)
     from generate_series(1, ${Math.min(EVENTS, DEVICES)}) g`,
  );
  const endUsers = await seedEndUsers(db, { users: USERS, logs: USER_LOGS, devices: DEVICES, timed });
  log(`api: seeded ${num(USERS, 0)} app users (${num(endUsers.links, 0)} mower links), ${num(USER_LOGS, 0)} user-log rows`);
  await timed('analyze', 'analyze');
  await db.end();
  return { history, endUsers, seconds };
}




export async function run(): Promise<BenchResult> {
  const db = await freshDatabase('api');
  // The server's migrations create the schema; then the seed fills it behind its back.
  const server = await startServerProcess({ databaseUrl: db.url, sqlFloor: true });
  try {
    const t0 = performance.now();
    const seeded = await seed(db.url);
    const seedSeconds = (performance.now() - t0) / 1000;
    const token = await signIn(server.url);
    const firmware = '2.1.0';
    // A keyset cursor half-way through the SN order, taken from the API itself.
    const half = Math.floor(DEVICES / 2 / 100);
    const cursor = (JSON.parse(await getBody(server.url, `/api/admin/device?page=${half}&pageSize=100`, token)) as { data: { nextCursor: string } }).data.nextCursor;
    const prefix = sn(Math.floor(DEVICES / 2)).slice(0, 4);
    const random = () => sn(1 + Math.floor(Math.random() * DEVICES));
    // `target`: the p99 goes to the summary against the target of its issue.
    const devicesTarget = { ms: 50, scale: `${num(DEVICES, 0)} devices` };
    const usersTarget = { ms: 50, scale: `${num(USERS, 0)} app users, ${num(USER_LOGS, 0)} log rows` };
    const deviceCases: EndpointCase[] = [
      { name: 'device list, first page', path: () => '/api/admin/device?page=1&pageSize=20', target: devicesTarget },
      { name: 'device list, deep page by offset (row 100,000)', path: () => '/api/admin/device?page=5001&pageSize=20' },
      { name: `device list, deep page by cursor (row ${num(half * 100, 0)})`, path: () => `/api/admin/device?pageSize=20&cursor=${cursor}` },
      { name: 'filtered: state = mowing (online)', path: () => '/api/admin/device?state=mowing&pageSize=20', target: devicesTarget },
      { name: 'filtered: region + model', path: () => '/api/admin/device?region=europe&modelId=9002&pageSize=20' },
      { name: `filtered: SN prefix ${prefix}`, path: () => `/api/admin/device?sn=${prefix}&pageSize=20` },
      { name: 'sorted: last seen, newest first', path: () => '/api/admin/device?sort=-lastSeenAt&pageSize=20' },
      { name: 'filtered + sorted: firmware, by battery', path: () => `/api/admin/device?firmware=${firmware}&sort=battery&pageSize=20` },
      { name: 'device detail (random SN)', path: () => `/api/admin/device/${random()}` },
      { name: 'event list, first page', path: () => '/api/admin/device/event?page=1&pageSize=20' },
      { name: 'event list: active critical', path: () => '/api/admin/device/event?severity=critical&status=active&pageSize=20' },
    ];
    const userCases: EndpointCase[] = [];
    if (GROUPS.includes('users')) {
      const users = '/api/admin/end-user';
      const userHalf = Math.max(1, Math.floor(USERS / 2 / 100));
      const userCursor = (JSON.parse(await getBody(server.url, `${users}?page=${userHalf}&pageSize=100`, token)) as { data: { nextCursor: string } }).data.nextCursor;
      const first = (JSON.parse(await getBody(server.url, `${users}?page=1&pageSize=20`, token)) as { data: { list: Array<{ email: string }> } }).data.list;
      // One user's e-mail up to the '@' (a support search), and a first name shared by ~1 in 30.
      const emailPrefix = (first[7] ?? first[0])!.email.split('@')[0]!;
      const randomUser = () => 1 + Math.floor(Math.random() * USERS);
      // A random hour of the last 180 days (the log's span).
      const randomHour = () => {
        const to = Date.now() - Math.floor(Math.random() * 179 * 24) * 3_600_000;
        return `from=${new Date(to - 3_600_000).toISOString()}&to=${new Date(to).toISOString()}`;
      };
      const stats = '/api/admin/statistics';
      userCases.push(
        { name: 'user list, first page', path: () => `${users}?page=1&pageSize=20`, target: usersTarget },
        { name: 'user list, filtered: country DE + status unverified', path: () => `${users}?country=DE&status=unverified&pageSize=20`, target: usersTarget },
        { name: 'user list, filtered: country FR + status disabled', path: () => `${users}?country=FR&status=disabled&pageSize=20`, target: usersTarget },
        { name: `user list, deep page by cursor (row ${num(userHalf * 100, 0)})`, path: () => `${users}?pageSize=20&cursor=${userCursor}`, target: usersTarget },
        { name: 'user list, keyword: a first name (1 in 30 users)', path: () => `${users}?keyword=lena&pageSize=20`, target: usersTarget },
        { name: `user list, keyword: one e-mail (${emailPrefix.replace(/\d+$/, '…')})`, path: () => `${users}?keyword=${encodeURIComponent(emailPrefix)}&pageSize=20`, target: usersTarget },
        { name: 'user log, first page', path: () => `${users}/log?page=1&pageSize=20` },
        { name: 'user log by user (random id)', path: () => `${users}/log?userId=${randomUser()}&pageSize=20`, target: usersTarget },
        { name: 'user log by time (random hour)', path: () => `${users}/log?${randomHour()}&pageSize=20`, target: usersTarget },
        { name: 'users by country, home', path: () => `${stats}/user-by-country?basis=home`, target: usersTarget },
        { name: 'users by country, device', path: () => `${stats}/user-by-country?basis=device`, target: usersTarget },
        { name: 'users by city, home', path: () => `${stats}/user-by-city?basis=home`, target: usersTarget },
        { name: 'users by city, device', path: () => `${stats}/user-by-city?basis=device`, target: usersTarget },
      );
    }
    const cases = [...(GROUPS.includes('devices') ? deviceCases : []), ...userCases];
    const measured = await measureEndpoints(server, token, cases, { label: 'api', durationS: DURATION_S, connections: CONNECTIONS, showSql: process.env.BENCH_API_SHOW_SQL === '1' });
    const seedLine = Object.entries(seeded.seconds)
      .map(([k, s]) => `${k} ${num(s, 0)} s`)
      .join(', ');
    const markdown = [
      `Seeded in a fresh PostgreSQL database: ${num(DEVICES, 0)} devices (+ latest state), ${num(seeded.history, 0)} telemetry history rows` +
        `${seeded.history < HISTORY ? ` (of ${num(HISTORY, 0)} wanted: the ${SEED_BUDGET_S} s seeding budget ran out on this machine)` : ''}, ` +
        `${num(Math.min(EVENTS, DEVICES), 0)} exception events, ${num(USERS, 0)} app users (${num(seeded.endUsers.links, 0)} mower links, every mower geocoded), ` +
        `${num(USER_LOGS, 0)} user-log rows; ${num(seedSeconds, 0)} s (${seedLine}). Load average (1 min) while measuring: ${measured.loads.map((l) => num(l, 1)).join(' → ')}.`,
      measured.markdown,
    ].join('\n');
    return { name: 'API at scale', markdown, headline: measured.headline };
  } finally {
    await server.stop();
    if (process.env.BENCH_API_KEEP_DB === '1') log(`api: kept ${db.url}`);
    else await db.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main(run);
