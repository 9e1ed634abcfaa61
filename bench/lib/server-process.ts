import { fork } from 'node:child_process';
import path from 'node:path';
import type { Config } from '../../apps/server/src/config.ts';

export interface ServerOptions {
  /** PostgreSQL database to use (else PGlite in `dataDir`, or in memory). */
  databaseUrl?: string;
  dataDir?: string;
  config?: Partial<Config>;
  /** PostgreSQL only: capture the SQL of requests marked `x-bench-capture: <key>` for the SQL floor (sql-floor.ts). */
  sqlFloor?: boolean;
}
export type ServerRequest =
  | { id: number; type: 'usage' }
  | { id: number; type: 'sql'; text: string }
  | { id: number; type: 'floor' }
  | { id: number; type: 'profileStart' }
  | { id: number; type: 'profileStop'; text: string }
  | { id: number; type: 'stop' };
export type ServerReply = { type: 'ready'; url: string; mqttUrl: string } | { type: 'reply'; id: number; data?: unknown; error?: string };

/** GET `${url}/floor/<key>` replays the captured SQL of request `<key>`; `statements` counts it. */
export interface SqlFloor {
  url: string;
  statements: Record<string, number>;
  /** The captured statements of each request, one entry per stage (side-by-side ones joined by ‖). */
  sql: Record<string, string[]>;
}

export interface Usage {
  rss: number;
  heapUsed: number;
  cpu: NodeJS.CpuUsage;
  counters: Record<string, number>;
  pending: number;
}

export interface ChildProcessHandle {
  /** The HTTP address (servers) or '' (brokers). */
  url: string;
  /** Where devices connect. */
  mqttUrl: string;
  pid: number;
  usage(): Promise<Usage>;
  sql<T = Record<string, unknown>>(text: string): Promise<T[]>;
  /** Ends the SQL capture and starts the floor route in the server process (`sqlFloor`). */
  floor(): Promise<SqlFloor>;
  /** Servers: a CPU profile of the main thread from now on (no start-up, seeding or registration in it). */
  startProfile(): Promise<void>;
  /** Servers: ends it and writes it (.cpuprofile) to `file`. */
  stopProfile(file: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Forks one of the benchmark's child processes (tsx) and speaks to it over IPC: it says `ready`
 * once listening and answers numbered requests. `cpuProfDir` writes a V8 CPU profile there on exit.
 */
export async function startChild(file: string, env: Record<string, string>, cpuProfDir?: string): Promise<ChildProcessHandle> {
  const child = fork(path.join(import.meta.dirname, file), [], {
    // --expose-gc: memory is read after a full collection, so garbage does not count as per-device cost.
    execArgv: ['--import', 'tsx', '--expose-gc', ...(cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : [])],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let nextId = 1;
  const ready = new Promise<Extract<ServerReply, { type: 'ready' }>>((resolve, reject) => {
    child.once('exit', (code) => {
      reject(new Error(`${file} exited (${code}) before it was ready`));
      for (const w of waiting.values()) w.reject(new Error(`${file} exited (${code})`));
    });
    child.on('message', (m: ServerReply) => {
      if (m.type === 'ready') return resolve(m);
      const w = waiting.get(m.id);
      waiting.delete(m.id);
      if (m.error) w?.reject(new Error(m.error));
      else w?.resolve(m.data);
    });
  });
  const { url, mqttUrl } = await ready;
  const call = <T>(req: { type: ServerRequest['type']; text?: string }) =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.send({ ...req, id });
    });
  return {
    url,
    mqttUrl,
    pid: child.pid!,
    usage: () => call<Usage>({ type: 'usage' }),
    sql: <T>(text: string) => call<T[]>({ type: 'sql', text }),
    floor: () => call<SqlFloor>({ type: 'floor' }),
    startProfile: () => call<void>({ type: 'profileStart' }),
    stopProfile: (file: string) => call<void>({ type: 'profileStop', text: file }),
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      await call({ type: 'stop' }).catch(() => {});
      await exited;
    },
  };
}

/** A Mowerline server in its own process (bench/lib/server-child.ts). */
export const startServerProcess = (opts: ServerOptions, cpuProfDir?: string) => startChild('server-child.ts', { BENCH_SERVER: JSON.stringify(opts) }, cpuProfDir);

/** The broker-alone baseline (bench/lib/broker-child.ts): aedes + a counting subscriber, or only the subscriber of an external broker. */
export const startBrokerProcess = (externalUrl?: string) => startChild('broker-child.ts', { BENCH_BROKER: JSON.stringify({ externalUrl }) });
