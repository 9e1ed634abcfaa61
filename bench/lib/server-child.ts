/**
 * A Mowerline server in its own process, so the benchmark can read the server's own memory and
 * CPU (process.memoryUsage / process.cpuUsage) apart from the simulated fleet and the load tools.
 * Started by server-process.ts; options arrive in BENCH_SERVER, requests over the IPC channel.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { sql } from 'drizzle-orm';
import { startServer } from '../../apps/server/test/harness.ts';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import type { ServerOptions, ServerReply, ServerRequest } from './server-process.ts';
import { createSqlFloor } from './sql-floor.ts';

const opts = JSON.parse(process.env.BENCH_SERVER ?? '{}') as ServerOptions;
const database = opts.databaseUrl ? await openDatabase({ url: opts.databaseUrl, dataDir: 'unused', onError: () => {} }) : undefined;
// What production runs: answers written by the compiled writer alone (tests also check each against zod).
const server = await startServer({ database, dataDir: opts.dataDir, config: { checkResponses: false, ...opts.config } });
const endpoints = server.ctx.gateway.endpoints();
// The server's own pool (PostgreSQL), so the floor runs its SQL over the same connections.
const sqlFloor = opts.sqlFloor && database ? createSqlFloor((database.db as unknown as { $client: Parameters<typeof createSqlFloor>[0] }).$client, server.app.server) : undefined;
let profiler: Session | undefined;
let floorServer: Awaited<ReturnType<NonNullable<typeof sqlFloor>['listen']>> | undefined;
const send = (m: ServerReply) => process.send!(m);
send({ type: 'ready', url: server.url, mqttUrl: endpoints.externalUrl ?? `mqtt://127.0.0.1:${endpoints.tcpPort}` });

process.on('message', (m: ServerRequest) => {
  void (async () => {
    try {
      if (m.type === 'usage') {
        globalThis.gc?.();
        const mem = process.memoryUsage();
        const stats = server.ctx.gateway.stats();
        send({ type: 'reply', id: m.id, data: { rss: mem.rss, heapUsed: mem.heapUsed, cpu: process.cpuUsage(), counters: stats.counters, pending: stats.pending } });
      } else if (m.type === 'sql') {
        const result = (await server.ctx.db.execute(sql.raw(m.text))) as unknown as { rows: unknown[] };
        send({ type: 'reply', id: m.id, data: result.rows });
      } else if (m.type === 'floor') {
        if (!sqlFloor) throw new Error('the server was started without sqlFloor (PostgreSQL only)');
        floorServer ??= await sqlFloor.listen();
        send({ type: 'reply', id: m.id, data: { url: floorServer.url, statements: floorServer.statements, sql: floorServer.sql } });
      } else if (m.type === 'profileStart') {
        profiler ??= new Session();
        profiler.connect();
        await profiler.post('Profiler.enable');
        await profiler.post('Profiler.start');
        send({ type: 'reply', id: m.id, data: null });
      } else if (m.type === 'profileStop') {
        if (!profiler) throw new Error('no profile was started');
        const { profile } = await profiler.post('Profiler.stop');
        profiler.disconnect();
        writeFileSync(m.text, JSON.stringify(profile));
        send({ type: 'reply', id: m.id, data: null });
      } else if (m.type === 'stop') {
        await floorServer?.close();
        // An overloaded server may hold a long broker backlog it would drain on close; the
        // benchmark has its figures, so give the orderly shutdown 15 s at most.
        await Promise.race([server.close(), new Promise((r) => setTimeout(r, 15_000))]);
        send({ type: 'reply', id: m.id, data: null });
        // Exiting (rather than lingering) also writes the --cpu-prof profile when one was asked for.
        process.exit(0);
      }
    } catch (err) {
      send({ type: 'reply', id: m.id, error: String(err) });
    }
  })();
});
