import { Worker } from 'node:worker_threads';
import { ConnectionWatch, type AccessChangeFeed } from './access-changes.ts';

interface Results<T = unknown> {
  rows: T[];
  affectedRows?: number;
  fields: Array<{ name: string; dataTypeID: number }>;
}

interface QueryOptions {
  rowMode?: 'array' | 'object';
  /** Only pass-through parsers (value => value) are supported: the worker returns those types as text. */
  parsers?: Record<number, (value: string, typeId: number) => unknown>;
}

type Reply =
  | { id: number; ok: true; result: unknown; notification?: undefined }
  | { id: number; ok: false; error: { message: string; name: string } & Record<string, unknown>; notification?: undefined }
  | { notification: { channel: string; payload: string } };

/** What drizzle, its migrator and pg-boss use of a PGlite instance, or of one of its transactions. */
export interface PGliteLike {
  query<T = unknown>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
}

/**
 * PGlite on a worker thread. In-process PGlite runs PostgreSQL (WebAssembly) on the event loop:
 * profiling the embedded ingest (bench/ingest.ts) put half of the server's only busy core there,
 * beside the MQTT broker and the API. On its own thread the database uses the machine's second
 * core, and a long statement no longer stalls the broker and every request. The interface is the
 * subset of PGlite's that drizzle, its migrator and pg-boss call; a transaction stays open in the
 * worker while its statements arrive one message at a time, and statements from outside it wait,
 * exactly as PGlite's own lock makes them wait in-process.
 */
export class PGliteThread implements PGliteLike {
  private readonly waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private nextId = 1;
  private failed: Error | undefined;

  private readonly watch: ConnectionWatch | undefined;
  private readonly listeners = new Map<string, Array<(payload: string) => void>>();

  private constructor(
    private readonly worker: Worker,
    private readonly accessChanges?: AccessChangeFeed,
  ) {
    this.watch = accessChanges && new ConnectionWatch(accessChanges);
    worker.on('message', (m: Reply) => {
      if (m.notification) {
        for (const listener of this.listeners.get(m.notification.channel) ?? []) listener(m.notification.payload);
        return;
      }
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (m.ok) w?.resolve(m.result);
      else w?.reject(Object.assign(new Error(m.error.message), m.error));
    });
    worker.on('error', (err) => this.abort(err));
    worker.on('exit', (code) => this.abort(new Error(`the database thread stopped (exit code ${code})`)));
  }

  /**
   * `accessChanges` hears of every committed write to the session and account tables (access-changes.ts).
   * `template` is a file written by PGlite's `dumpDataDir` to start from instead of an empty cluster.
   */
  static async create(dataDir: string, accessChanges?: AccessChangeFeed, template?: string): Promise<PGliteThread> {
    const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), { workerData: { dataDir, template } });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (m: { ready?: boolean }) => {
        if (!m.ready) return;
        worker.off('message', onMessage);
        worker.off('error', reject);
        resolve();
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
    return new PGliteThread(worker, accessChanges);
  }

  query<T = unknown>(sql: string, params: unknown[] = [], options: QueryOptions = {}, tx?: number, watch = this.watch): Promise<Results<T>> {
    const rawTypes = Object.keys(options.parsers ?? {}).map(Number);
    return this.watched(sql, watch, this.call({ op: 'query', sql, params, rowMode: options.rowMode ?? 'object', rawTypes, tx }));
  }

  exec(sql: string, tx?: number, watch = this.watch): Promise<Results[]> {
    return this.watched(sql, watch, this.call({ op: 'exec', sql, tx }));
  }

  async transaction<T>(fn: (tx: PGliteLike) => Promise<T>): Promise<T> {
    const { tx } = await this.call<{ tx: number }>({ op: 'begin' });
    // The transaction's writes are reported when it ends, not statement by statement.
    const watch = this.accessChanges && new ConnectionWatch(this.accessChanges);
    watch?.completed('begin');
    const handle: PGliteLike = {
      query: (sql, params, options) => this.query(sql, params, options, tx, watch),
      exec: (sql) => this.exec(sql, tx, watch),
    };
    let result: T;
    try {
      result = await fn(handle);
    } catch (err) {
      await this.call({ op: 'rollback', tx }).catch(() => {});
      watch?.completed('rollback');
      throw err;
    }
    try {
      await this.call({ op: 'commit', tx });
    } finally {
      watch?.completed('commit');
    }
    return result;
  }

  private async watched<R>(sql: string, watch: ConnectionWatch | undefined, result: Promise<R>): Promise<R> {
    try {
      return await result;
    } finally {
      watch?.completed(sql);
    }
  }

  /** LISTEN on the embedded database: `onNotify` hears every NOTIFY on `channel` at its commit. */
  async listen(channel: string, onNotify: (payload: string) => void): Promise<void> {
    const known = this.listeners.get(channel);
    if (known) {
      known.push(onNotify);
      return;
    }
    this.listeners.set(channel, [onNotify]);
    await this.call({ op: 'listen', channel });
  }

  async close(): Promise<void> {
    if (!this.failed) await this.call({ op: 'close' });
    await this.worker.terminate();
  }

  private call<T>(message: Record<string, unknown>): Promise<T> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  private abort(err: Error) {
    this.failed ??= err;
    for (const w of this.waiting.values()) w.reject(this.failed);
    this.waiting.clear();
  }
}
