/**
 * The measurement every API benchmark shares (bench/api.ts, tasks.ts, tickets.ts): each case's
 * endpoint under autocannon next to its two baselines,
 *   - the SQL floor (the headline ratio): a bare route in the server process replaying the SQL one
 *     steady-state request of the endpoint ran, through the server's own pool (sql-floor.ts);
 *   - the bare route: the same bytes with no database at all, in its own process (the upper bound).
 * One connection shows a request's own latency; `connections` show throughput under load.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { cannon, getBody } from './http.ts';
import { startChild, type ChildProcessHandle } from './server-process.ts';
import { log, ms, num, ratio, table, type BenchResult } from './stats.ts';

export interface EndpointCase {
  name: string;
  path: () => string;
  /** A p99 target: at one connection, and also under load when `loaded`; `scale` names the data it holds at. */
  target?: { ms: number; scale: string; loaded?: boolean };
}

export interface MeasureOptions {
  /** Prefix of the progress lines. */
  label: string;
  durationS: number;
  connections: number;
  /** Log the SQL each endpoint ran (what its floor replays). */
  showSql?: boolean;
}

export interface Measured {
  /** One real answer per case (a sanity check for the caller). */
  bodies: string[];
  /** The baselines paragraph and the table. */
  markdown: string;
  headline: BenchResult['headline'];
  /** 1-minute load average before the first case and after the last. */
  loads: [number, number];
}

/** `server` must have been started with `sqlFloor: true` (PostgreSQL). */
export async function measureEndpoints(server: ChildProcessHandle, token: string, cases: EndpointCase[], opts: MeasureOptions): Promise<Measured> {
  const { label, durationS, connections } = opts;
  // One real answer per case: its bytes become the bare route's answer, and its SQL the floor's.
  // A warm-up request first, so the captured one is a steady-state request (caches as they are
  // under load). One at a time: a request waiting for a pool connection would lose its capture context.
  const bodies: string[] = [];
  for (const [i, c] of cases.entries()) {
    const p = c.path();
    await getBody(server.url, p, token);
    bodies.push(await getBody(server.url, p, token, { 'x-bench-capture': String(i) }));
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'mowerline-bare-'));
  writeFileSync(path.join(dir, 'bodies.json'), JSON.stringify(bodies));
  const bare = await startChild('bare-child.ts', { BENCH_BARE_BODIES: path.join(dir, 'bodies.json') });
  try {
    const floor = await server.floor();
    if (opts.showSql) {
      for (const [i, c] of cases.entries()) log(`${label}: SQL of ${c.name}:\n${(floor.sql[String(i)] ?? []).map((st, n) => `    ${n + 1}. ${st.slice(0, 400)}`).join('\n')}`);
    }
    const rows: Array<Array<string | number>> = [];
    const headline: BenchResult['headline'] = [];
    const before = loadavg()[0]!;
    for (const [i, c] of cases.entries()) {
      log(`${label}: ${c.name} (load ${num(loadavg()[0]!, 1)})`);
      const api1 = await cannon(server.url, token, c.path, 1, durationS);
      const base1 = await cannon(bare.url, undefined, () => `/bare/${i}`, 1, durationS);
      const api = await cannon(server.url, token, c.path, connections, durationS);
      const sqlFloor = await cannon(floor.url, undefined, () => `/floor/${i}`, connections, durationS);
      const base = await cannon(bare.url, undefined, () => `/bare/${i}`, connections, durationS);
      const failed = [api1, api, sqlFloor].reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0);
      const floorRatio = sqlFloor.requests.average > 0 ? api.requests.average / sqlFloor.requests.average : Number.NaN;
      log(`${label}:   p99 ${ms(api1.latency.p99)} at 1 conn.; ${num(api.requests.average, 0)} req/s at ${connections} = ${num(floorRatio, 2)}× the SQL floor`);
      rows.push([
        c.name,
        num(Buffer.byteLength(bodies[i]!) / 1024, 1),
        String(floor.statements[String(i)] ?? '–'),
        `${ms(api1.latency.p50)} / ${ms(api1.latency.p99)}`,
        `${ms(base1.latency.p50)} / ${ms(base1.latency.p99)}`,
        `${num(api.requests.average, 0)} (p99 ${ms(api.latency.p99)})`,
        `${num(sqlFloor.requests.average, 0)} (p99 ${ms(sqlFloor.latency.p99)})`,
        `**${ratio(api.requests.average, sqlFloor.requests.average)}**`,
        `${num(base.requests.average, 0)} (p99 ${ms(base.latency.p99)})`,
        ratio(api.requests.average, base.requests.average),
        String(failed),
      ]);
      headline.push({
        what: `${c.name}: API ÷ SQL floor, req/s at ${connections} connections`,
        value: ratio(api.requests.average, sqlFloor.requests.average),
        target: '≥ 0.5×',
        met: Number.isFinite(floorRatio) ? floorRatio >= 0.5 : null,
      });
      if (c.target) {
        const { ms: target, scale, loaded } = c.target;
        headline.push(
          loaded
            ? { what: `${c.name} p99 at ${scale} (1 / ${connections} connections)`, value: `${ms(api1.latency.p99)} / ${ms(api.latency.p99)}`, target: `< ${target} ms`, met: api1.latency.p99 < target && api.latency.p99 < target }
            : { what: `${c.name} p99 at ${scale} (1 connection)`, value: ms(api1.latency.p99), target: `< ${target} ms`, met: api1.latency.p99 < target },
        );
      }
    }
    const markdown = [
      `autocannon, ${durationS} s per run: latency with 1 connection, throughput with ${connections}; signed in as an administrator (every request passes the session guard). ` +
        'autocannon reports whole milliseconds.',
      `Baselines: the **SQL floor** (headline) is a bare Fastify route in the server process that runs the SQL statements one steady-state request of the endpoint ran ` +
        '(captured from the pg client after a warm-up request; statements that overlapped in the request run side by side, transaction framing left out) ' +
        "through the server's own pool and answers their rows as JSON; cases with a random key replay one key. " +
        'The **bare route** answers the same bytes with no database at all, in its own process: the upper bound of HTTP alone.',
      '',
      table(
        ['endpoint', 'KiB', 'SQL', 'API p50 / p99 (1 conn.)', 'bare p50 / p99 (1 conn.)', `API req/s (${connections} conn.)`, `SQL floor req/s (${connections} conn.)`, 'API ÷ floor', `bare req/s (${connections} conn.)`, 'API ÷ bare', 'failed'],
        rows,
      ),
    ].join('\n');
    return { bodies, markdown, headline, loads: [before, loadavg()[0]!] };
  } finally {
    await bare.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
