/**
 * The API benchmark's fair floor: for each endpoint, the SQL that one real request ran,
 * captured inside the server process, replayed by a bare Fastify route through the server's own
 * `pg` pool. What the endpoint costs beyond that floor is the platform's overhead per request
 * (guard, validation, serialization, the envelope); the floor itself is what no implementation of
 * the same queries could beat.
 *
 * Capture: requests carrying `x-bench-capture: <key>` run inside an AsyncLocalStorage context, and
 * every `pg` client query started in that context (through the pool or a transaction's client) is
 * recorded with its configuration, parameters and start/end times. Only those requests are
 * recorded, so the server's background work (ingest, maintenance, pg-boss) never leaks in.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Server } from 'node:http';
import Fastify from 'fastify';

interface QueryConfig {
  text: string;
  values?: unknown[];
  rowMode?: string;
  types?: unknown;
}
interface Recorded {
  config: QueryConfig;
  values: unknown[] | undefined;
  start: number;
  end: number;
}
type Query = (config: unknown, values?: unknown, callback?: unknown) => unknown;
interface PgPool {
  Client: { prototype: { query: Query } };
  query(config: QueryConfig, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** Statements that only frame a transaction: the floor runs the statements themselves. */
const FRAMING = /^\s*(begin|commit|rollback|savepoint|release|start transaction)\b/i;

export function createSqlFloor(pool: PgPool, http: Server) {
  const als = new AsyncLocalStorage<Recorded[]>();
  const captures = new Map<string, Recorded[]>();
  const proto = pool.Client.prototype;
  const originalQuery = proto.query;
  proto.query = function (this: unknown, config: unknown, values?: unknown, callback?: unknown) {
    const store = als.getStore();
    const text = typeof config === 'string' ? config : (config as QueryConfig | undefined)?.text;
    if (!store || typeof text !== 'string') return originalQuery.call(this, config, values, callback);
    const normal: QueryConfig = typeof config === 'string' ? { text } : (config as QueryConfig);
    const rec: Recorded = { config: normal, values: Array.isArray(values) ? values : normal.values, start: performance.now(), end: Number.POSITIVE_INFINITY };
    store.push(rec);
    const done = () => (rec.end = performance.now());
    // pg-pool calls client.query with a callback (then nothing is returned); drizzle on a client awaits a promise.
    const wrap = (cb: unknown) => (typeof cb === 'function' ? (...args: unknown[]) => (done(), (cb as (...a: unknown[]) => unknown)(...args)) : cb);
    const result = typeof values === 'function' ? originalQuery.call(this, config, wrap(values)) : originalQuery.call(this, config, values, wrap(callback));
    if (result && typeof (result as Promise<unknown>).then === 'function') (result as Promise<unknown>).then(done, done);
    return result;
  } as Query;

  const listeners = http.listeners('request') as Array<(...args: unknown[]) => void>;
  http.removeAllListeners('request');
  const wrapped = (req: { headers: Record<string, unknown> }, res: unknown) => {
    const key = req.headers['x-bench-capture'];
    const run = () => listeners.forEach((l) => l.call(http, req, res));
    if (typeof key !== 'string') return run();
    const store: Recorded[] = [];
    captures.set(key, store);
    als.run(store, run);
  };
  http.on('request', wrapped);

  /** Stops capturing: the server runs exactly as before for the measurement. */
  function stopCapture(): void {
    proto.query = originalQuery;
    http.removeListener('request', wrapped);
    for (const l of listeners) http.on('request', l);
  }

  /**
   * Queries that overlapped in the real request ran side by side (a Promise.all in the service):
   * the floor runs them side by side too, and the stages one after another.
   */
  function stages(recorded: Recorded[]): Recorded[][] {
    const sorted = recorded.filter((r) => !FRAMING.test(r.config.text)).sort((a, b) => a.start - b.start);
    const out: Recorded[][] = [];
    let stageEnd = Number.NEGATIVE_INFINITY;
    for (const r of sorted) {
      if (out.length === 0 || r.start >= stageEnd) {
        out.push([]);
        stageEnd = r.end;
      } else stageEnd = Math.max(stageEnd, r.end);
      out[out.length - 1]!.push(r);
    }
    return out;
  }

  /** The bare route: GET /floor/<key> runs that request's SQL and answers every result's rows. */
  async function listen(): Promise<{ url: string; statements: Record<string, number>; sql: Record<string, string[]>; close(): Promise<void> }> {
    stopCapture();
    const plans = new Map([...captures].map(([k, recorded]) => [k, stages(recorded)]));
    const app = Fastify({ logger: false });
    app.get<{ Params: { key: string } }>('/floor/:key', async (request, reply) => {
      const plan = plans.get(request.params.key);
      if (!plan) return reply.status(404).send({ error: 'not captured' });
      const rows: unknown[] = [];
      for (const stage of plan) {
        const results = await Promise.all(stage.map((r) => pool.query(r.config, r.values)));
        for (const r of results) rows.push(r.rows);
      }
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(rows));
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const statements = Object.fromEntries([...plans].map(([k, plan]) => [k, plan.reduce((n, s) => n + s.length, 0)]));
    // Each stage's statements, one line each, for reading where a request's time goes.
    const sql = Object.fromEntries([...plans].map(([k, plan]) => [k, plan.map((stage) => stage.map((r) => r.config.text.replace(/\s+/g, ' ')).join('  ‖  '))]));
    return { url: `http://127.0.0.1:${port}`, statements, sql, close: () => app.close() };
  }

  return { listen };
}
