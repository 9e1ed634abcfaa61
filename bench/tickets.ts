/**
 * Feedback tickets at scale: app users, tickets and their conversation entries seeded
 * in a fresh PostgreSQL database with set-based SQL (INSERT … SELECT generate_series), then the
 * staff list (first page, filtered pages, full-text keyword) and the detail under autocannon with
 * 1 and 10 connections, each next to its SQL floor and a bare route (bench/lib/endpoint-cases.ts).
 *
 *   BENCH_TICKETS_USERS=200000        app users the tickets belong to
 *   BENCH_TICKETS=1000000             tickets, created evenly over the last year
 *   BENCH_TICKET_ENTRIES=10000000     conversation entries, spread evenly over the tickets
 *   BENCH_TICKETS_DURATION_S=5        autocannon seconds per run (4 runs per endpoint)
 *   BENCH_TICKETS_CONNECTIONS=10      connections of the load run (the latency run uses 1)
 *   BENCH_TICKETS_KEEP_DB=0           1: keep the database afterwards (its URL is printed) for EXPLAIN
 *   BENCH_TICKETS_SHOW_SQL=0          1: log the SQL each endpoint ran (what its floor replays)
 *
 * Ticket g belongs to user (g·7919 mod users) + 1; statuses: closed 55 %, resolved 15 %, open 12 %,
 * pending_customer 8 %, new 7 %, spam 3 %; priorities normal 60 %, high 20 %, low 15 %, urgent 5 %;
 * two in three assigned to one of 10 agents. Titles and descriptions are drawn from a 2,000-word
 * vocabulary (word k used by about 1 ticket in k, Zipf-like), so a keyword can be rare or common;
 * the search document is title and description (public entries add to it on the live path).
 * Secondary indexes are dropped before the seed and rebuilt from their own definitions, then
 * VACUUM ANALYZE.
 */
import pg from 'pg';
import { measureEndpoints, type EndpointCase } from './lib/endpoint-cases.ts';
import { signIn } from './lib/http.ts';
import { freshDatabase } from './lib/pg.ts';
import { startServerProcess } from './lib/server-process.ts';
import { log, num, main, type BenchResult } from './lib/stats.ts';

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
  const server = await startServerProcess({ databaseUrl: db.url, sqlFloor: true });
  try {
    const t0 = performance.now();
    const seeded = await seed(db.url);
    const seedSeconds = (performance.now() - t0) / 1000;
    log(`tickets: seeded in ${num(seedSeconds, 0)} s`);
    const token = await signIn(server.url);
    const randomId = () => 1 + Math.floor(Math.random() * TICKETS);
    const target = { ms: TARGET_MS, scale: `${num(TICKETS, 0)} tickets` };
    const cases: EndpointCase[] = [
      { name: 'list, first page', path: () => '/api/admin/ticket?pageSize=20', target },
      { name: 'list, status open + priority urgent', path: () => '/api/admin/ticket?status=open&priority=urgent&pageSize=20', target },
      { name: 'list, view unassigned', path: () => '/api/admin/ticket?view=unassigned&pageSize=20', target },
      { name: 'list, view breaching', path: () => '/api/admin/ticket?view=breaching&pageSize=20', target },
      { name: 'keyword, rare word (w1500)', path: () => '/api/admin/ticket?keyword=w1500&pageSize=20', target },
      { name: 'keyword, common word (w3)', path: () => '/api/admin/ticket?keyword=w3&pageSize=20', target },
      { name: 'detail (random ticket, ~10 entries)', path: () => `/api/admin/ticket/${randomId()}`, target },
    ];
    const measured = await measureEndpoints(server, token, cases, { label: 'tickets', durationS: DURATION_S, connections: CONNECTIONS, showSql: process.env.BENCH_TICKETS_SHOW_SQL === '1' });
    const totals = measured.bodies.slice(0, 6).map((b, i) => {
      const d = (JSON.parse(b) as { data: { total: number; totalExact: boolean } }).data;
      return `${cases[i]!.name}: ${d.totalExact ? '' : '~'}${num(d.total, 0)}`;
    });
    const seedLine = Object.entries(seeded.seconds)
      .map(([k, s]) => `${k} ${num(s, 0)} s`)
      .join(', ');
    const markdown = [
      `Seeded in a fresh PostgreSQL database: ${num(TICKETS, 0)} tickets of ${num(USERS, 0)} app users with ${num(ENTRIES, 0)} conversation entries; ${num(seedSeconds, 0)} s (${seedLine}). ` +
        `Load average (1 min) while measuring: ${measured.loads.map((l) => num(l, 1)).join(' → ')}.`,
      `Answers: matches — ${totals.join('; ')}.`,
      measured.markdown,
    ].join('\n');
    return { name: 'Tickets at scale', markdown, headline: measured.headline };
  } finally {
    await server.stop();
    if (KEEP_DB) log(`tickets: kept ${db.url}`);
    else await db.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main(run);
