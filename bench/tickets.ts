/**
 * Feedback tickets at scale (issue 15): app users, tickets and their conversation entries seeded
 * in a fresh PostgreSQL database with set-based SQL (INSERT … SELECT generate_series), then the
 * staff list (first page, filtered pages, full-text keyword) and the detail under autocannon with
 * 1 and 10 connections, each next to a bare Fastify route answering the same bytes.
 *
 *   BENCH_TICKETS_USERS=200000        app users the tickets belong to
 *   BENCH_TICKETS=1000000             tickets, created evenly over the last year
 *   BENCH_TICKET_ENTRIES=10000000     conversation entries, spread evenly over the tickets
 *   BENCH_TICKETS_DURATION_S=5        autocannon seconds per run (4 runs per endpoint)
 *   BENCH_TICKETS_CONNECTIONS=10      connections of the load run (the latency run uses 1)
 *   BENCH_TICKETS_KEEP_DB=0           1: keep the database afterwards (its URL is printed) for EXPLAIN
 *
 * Ticket g belongs to user (g·7919 mod users) + 1; statuses: closed 55 %, resolved 15 %, open 12 %,
 * pending_customer 8 %, new 7 %, spam 3 %; priorities normal 60 %, high 20 %, low 15 %, urgent 5 %;
 * two in three assigned to one of 10 agents. Titles and descriptions are drawn from a 2,000-word
 * vocabulary (word k used by about 1 ticket in k, Zipf-like), so a keyword can be rare or common;
 * the search document is title and description (public entries add to it on the live path).
 * Secondary indexes are dropped before the seed and rebuilt from their own definitions, then
 * VACUUM ANALYZE.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { cannon, getBody, signIn } from './lib/http.ts';
import { freshDatabase } from './lib/pg.ts';
import { machine } from './lib/proc.ts';
import { startChild, startServerProcess } from './lib/server-process.ts';
import { log, ms, num, ratio, table, main, type BenchResult } from './lib/stats.ts';

const USERS = Number(process.env.BENCH_TICKETS_USERS ?? 200_000);
const TICKETS = Number(process.env.BENCH_TICKETS ?? 1_000_000);
const ENTRIES = Number(process.env.BENCH_TICKET_ENTRIES ?? 10_000_000);
const DURATION_S = Number(process.env.BENCH_TICKETS_DURATION_S ?? 5);
const CONNECTIONS = Number(process.env.BENCH_TICKETS_CONNECTIONS ?? 10);
const KEEP_DB = process.env.BENCH_TICKETS_KEEP_DB === '1';
const TARGET_MS = 50;
const AGENTS = 10;

/** Word k of the vocabulary: `w<k>`; a Zipf-like pick in SQL is `'w' || floor(2000 ^ random())`. */
const zipfWord = `'w' || floor(power(2000, random()))::int`;

async function seed(url: string): Promise<{ seconds: Record<string, number> }> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  // A benchmark's data needs no crash safety; the server's own writes keep the default.
  await db.query('set synchronous_commit = off');
  await db.query("set maintenance_work_mem = '512MB'");
  await db.query("set work_mem = '256MB'");
  const seconds: Record<string, number> = {};
  const timed = async (what: string, text: string) => {
    const t = performance.now();
    await db.query(text);
    seconds[what] = (seconds[what] ?? 0) + (performance.now() - t) / 1000;
  };
  const indexes = await db.query<{ name: string; def: string }>(
    `select i.relname as name, pg_get_indexdef(i.oid) as def from pg_index x join pg_class i on i.oid = x.indexrelid
     where x.indrelid in ('tickets'::regclass, 'ticket_entries'::regclass) and not x.indisprimary and not x.indisunique`,
  );
  for (const i of indexes.rows) await db.query(`drop index ${i.name}`);

  await timed(
    'agents',
    `insert into staff_users (username, password_hash, name, role, status)
     select 'agent' || g, 'x', 'Agent ' || g, 'user', 'active' from generate_series(1, ${AGENTS}) g`,
  );
  await timed(
    'users',
    `insert into app_users (email, password_hash, name, country, locale, time_zone, status)
     select 'owner' || g || '@bench.test', 'x', 'Owner ' || g, 'DE', case when g % 3 = 0 then 'zh-CN' else 'en-US' end, 'Europe/Berlin', 'active'
     from generate_series(1, ${USERS}) g`,
  );
  const step = 250_000;
  for (let from = 1; from <= TICKETS; from += step) {
    const to = Math.min(TICKETS, from + step - 1);
    await timed(
      'tickets',
      `insert into tickets (id, number, user_id, sn, category, title, description, status, priority, assignee_id, tags,
                            first_response_due, resolution_due, first_response_at, resolved_at, closed_at, search, last_activity_at, created_at)
       select g, 100000 + g, (g::bigint * 7919 % ${USERS}) + 1,
              case when g % 3 = 0 then 'D' || lpad(((g * 31) % 1000000 + 1)::text, 7, '0') end,
              (array['device','app','account','suggestion','other'])[1 + g % 5],
              t.title, t.description, s.status, p.priority,
              case when g % 3 <> 0 then (select min(id) from staff_users) + g % ${AGENTS + 1} end,
              case when g % 7 = 0 then array['rain'] else '{}'::text[] end,
              c.at + interval '8 hours', c.at + interval '72 hours',
              case when s.status <> 'new' then c.at + interval '2 hours' end,
              case when s.status in ('resolved', 'closed') then c.at + interval '30 hours' end,
              case when s.status in ('closed', 'spam') then c.at + interval '40 hours' end,
              to_tsvector('simple', t.title || ' ' || t.description),
              date_trunc('milliseconds', least(now(), c.at + make_interval(secs => (g % 200000)))), c.at
       from generate_series(${from}, ${to}) g
       cross join lateral (select date_trunc('milliseconds', now() - interval '365 days' + (g::double precision / ${TICKETS}) * interval '365 days') as at) c
       cross join lateral (select 'Ticket ' || ${zipfWord} || ' ' || ${zipfWord} as title,
                                  ${zipfWord} || ' ' || ${zipfWord} || ' ' || ${zipfWord} || ' ' || ${zipfWord} || ' ' || ${zipfWord} || ' mower ' || g as description) t
       cross join lateral (select case when g % 100 < 55 then 'closed' when g % 100 < 70 then 'resolved' when g % 100 < 82 then 'open'
                                       when g % 100 < 90 then 'pending_customer' when g % 100 < 97 then 'new' else 'spam' end as status) s
       cross join lateral (select case when g % 20 < 12 then 'normal' when g % 20 < 16 then 'high' when g % 20 < 19 then 'low' else 'urgent' end as priority) p`,
    );
  }
  await db.query(`select setval('ticket_numbers', ${100000 + TICKETS})`);
  await db.query(`select setval(pg_get_serial_sequence('tickets', 'id'), ${TICKETS})`);
  const perTicket = ENTRIES / TICKETS;
  const entryStep = 1_000_000;
  for (let from = 1; from <= ENTRIES; from += entryStep) {
    const to = Math.min(ENTRIES, from + entryStep - 1);
    await timed(
      'entries',
      `insert into ticket_entries (ticket_id, kind, internal, channel, author_name, body, created_at)
       select t, case when g % 2 = 0 then 'customer' else 'agent' end, g % 10 = 1,
              case when g % 2 = 0 then 'app' else 'console' end, case when g % 2 = 0 then '' else 'Agent' end,
              'Reply ' || g || ' ' || ${zipfWord} || ' ' || ${zipfWord}, now() - interval '365 days' + ((t::double precision / ${TICKETS}) * interval '365 days') + make_interval(mins => (g % 97))
       from generate_series(${from}, ${to}) g
       cross join lateral (select ((g - 1) / ${perTicket})::int + 1 as t) x`,
    );
  }
  for (const i of indexes.rows) await timed('indexes', i.def);
  await timed('vacuum analyze', 'vacuum analyze tickets');
  await timed('vacuum analyze', 'vacuum analyze ticket_entries');
  await db.end();
  return { seconds };
}




export async function run(): Promise<BenchResult> {
  const db = await freshDatabase('tickets');
  const server = await startServerProcess({ databaseUrl: db.url });
  const dir = mkdtempSync(path.join(tmpdir(), 'mowerline-bare-'));
  try {
    const t0 = performance.now();
    const seeded = await seed(db.url);
    const seedSeconds = (performance.now() - t0) / 1000;
    log(`tickets: seeded in ${num(seedSeconds, 0)} s`);
    const token = await signIn(server.url);
    const randomId = () => 1 + Math.floor(Math.random() * TICKETS);
    const cases: Array<{ name: string; path: () => string }> = [
      { name: 'list, first page', path: () => '/api/admin/ticket?pageSize=20' },
      { name: 'list, status open + priority urgent', path: () => '/api/admin/ticket?status=open&priority=urgent&pageSize=20' },
      { name: 'list, view unassigned', path: () => '/api/admin/ticket?view=unassigned&pageSize=20' },
      { name: 'list, view breaching', path: () => '/api/admin/ticket?view=breaching&pageSize=20' },
      { name: 'keyword, rare word (w1500)', path: () => '/api/admin/ticket?keyword=w1500&pageSize=20' },
      { name: 'keyword, common word (w3)', path: () => '/api/admin/ticket?keyword=w3&pageSize=20' },
      { name: 'detail (random ticket, ~10 entries)', path: () => `/api/admin/ticket/${randomId()}` },
    ];
    const bodies = await Promise.all(cases.map((c) => getBody(server.url, c.path(), token)));
    const totals = bodies.slice(0, 6).map((b, i) => {
      const d = (JSON.parse(b) as { data: { total: number; totalExact: boolean } }).data;
      return `${cases[i]!.name}: ${d.totalExact ? '' : '~'}${num(d.total, 0)}`;
    });
    const sanity = `matches — ${totals.join('; ')}`;
    log(`tickets: ${sanity}`);
    writeFileSync(path.join(dir, 'bodies.json'), JSON.stringify(bodies));
    const bare = await startChild('bare-child.ts', { BENCH_BARE_BODIES: path.join(dir, 'bodies.json') });

    const rows: Array<Array<string | number>> = [];
    const headline: BenchResult['headline'] = [];
    const loads: string[] = [];
    for (const [i, c] of cases.entries()) {
      log(`tickets: ${c.name}`);
      loads.push(machine().load);
      const api1 = await cannon(server.url, token, c.path, 1, DURATION_S);
      const base1 = await cannon(bare.url, undefined, () => `/bare/${i}`, 1, DURATION_S);
      const api = await cannon(server.url, token, c.path, CONNECTIONS, DURATION_S);
      const base = await cannon(bare.url, undefined, () => `/bare/${i}`, CONNECTIONS, DURATION_S);
      const failed = [api1, api].reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0);
      log(`tickets:   p99 ${ms(api1.latency.p99)} (bare ${ms(base1.latency.p99)}) at 1 conn., ${ms(api.latency.p99)} (bare ${ms(base.latency.p99)}) at ${CONNECTIONS}`);
      rows.push([
        c.name,
        num(Buffer.byteLength(bodies[i]!) / 1024, 1),
        `${ms(api1.latency.p50)} / ${ms(api1.latency.p99)}`,
        `${ms(base1.latency.p50)} / ${ms(base1.latency.p99)}`,
        ratio(api1.latency.p99, Math.max(1, base1.latency.p99)),
        `${ms(api.latency.p50)} / ${ms(api.latency.p99)}`,
        `${ms(base.latency.p50)} / ${ms(base.latency.p99)}`,
        ratio(api.latency.p99, Math.max(1, base.latency.p99)),
        `${num(api.requests.average, 0)} / ${num(base.requests.average, 0)} (${ratio(api.requests.average, base.requests.average)})`,
        String(failed),
      ]);
      headline.push({ what: `tickets: ${c.name} p99 at ${num(TICKETS, 0)} tickets (1 connection)`, value: ms(api1.latency.p99), target: `< ${TARGET_MS} ms`, met: api1.latency.p99 < TARGET_MS });
    }
    await bare.stop();
    const seedLine = Object.entries(seeded.seconds)
      .map(([k, s]) => `${k} ${num(s, 0)} s`)
      .join(', ');
    const markdown = [
      `Seeded in a fresh PostgreSQL database: ${num(TICKETS, 0)} tickets of ${num(USERS, 0)} app users with ${num(ENTRIES, 0)} conversation entries; ${num(seedSeconds, 0)} s (${seedLine}).`,
      `Answers: ${sanity}.`,
      `autocannon, ${DURATION_S} s per run, 1 and ${CONNECTIONS} connections; signed in as an administrator. Baseline: a bare Fastify route in its own process answering the same bytes. ` +
        `"÷ bare" compares p99s (a bare p99 under 1 ms counts as 1 ms). Load average (1 / 5 / 15 min) before each case: ${loads.join('; ')}.`,
      '',
      table(
        ['endpoint', 'KiB', 'API p50 / p99 (1 conn.)', 'bare p50 / p99 (1 conn.)', 'p99 ÷ bare', `API p50 / p99 (${CONNECTIONS} conn.)`, `bare p50 / p99 (${CONNECTIONS} conn.)`, 'p99 ÷ bare', `req/s API / bare (${CONNECTIONS} conn.)`, 'failed'],
        rows,
      ),
    ].join('\n');
    return { name: 'Tickets at scale', markdown, headline };
  } finally {
    await server.stop();
    if (KEEP_DB) log(`tickets: kept ${db.url}`);
    else await db.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main(run);
