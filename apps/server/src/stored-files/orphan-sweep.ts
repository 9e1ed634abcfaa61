import { lstat, readdir, realpath, rm } from 'node:fs/promises';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { fileReferences, type FileReference } from './file-references.ts';

/** How many candidate paths one reference query checks. */
const BATCH = 500;
/** Unnamed stored files (outside tmp/) from which "no row names any" means a wrong database, not orphans. */
const SUSPICIOUS_UNNAMED = 20;
/** How many removed paths one log line names (the count is always complete). */
const LOGGED_PATHS = 100;

export interface SweepLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface SweepResult {
  removed: string[];
  bytes: number;
}

interface Candidate {
  relative: string;
  full: string;
  ino: number;
  mtimeMs: number;
  size: number;
}

/**
 * Removes files under DATA_DIR/files that no row names (`fileReferences`) and that are older than
 * `minAgeMs`: what a crash left between writing a file and committing its row, and the `.part`
 * files of uploads cut off mid-stream. The age protects uploads in progress on any node sharing the
 * directory, since a file is written before its row. Symbolic links are neither followed nor
 * removed: the server never makes one, so one is an operator's and may point anywhere.
 * Runs at start and every `intervalMs`; start()/stop() so it can be hosted anywhere.
 */
export class OrphanFileSweep {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly opts: {
      db: Db;
      dataDir: string;
      minAgeMs: number;
      log: SweepLog;
      intervalMs?: number;
      references?: readonly FileReference[];
      now?: () => number;
    },
  ) {}

  start(): void {
    if (this.timer) return;
    const tick = () => {
      this.running = this.sweep().catch((err: unknown) => this.opts.log.error({ err }, 'orphan file sweep failed'));
    };
    tick();
    this.timer = setInterval(tick, this.opts.intervalMs ?? 3_600_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One pass; answers what it removed (relative to DATA_DIR/files). */
  async sweep(): Promise<SweepResult> {
    const root = await realpath(path.join(this.opts.dataDir, 'files')).catch(() => undefined);
    if (!root) return { removed: [], bytes: 0 };
    const cutoff = (this.opts.now?.() ?? Date.now()) - this.opts.minAgeMs;
    const old = (await listFiles(root)).filter((c) => c.mtimeMs <= cutoff);
    const orphans: Candidate[] = [];
    let named = 0;
    for (let i = 0; i < old.length; i += BATCH) {
      const batch = old.slice(i, i + BATCH);
      const rows = await this.referenced(batch.map((c) => c.relative));
      named += rows.size;
      orphans.push(...batch.filter((c) => !rows.has(c.relative)));
    }
    // Many stored files and not one of them named: the node is on the wrong (or an empty) database,
    // not looking at orphans. Only temporary files go until a row names something.
    const stored = orphans.filter((c) => !c.relative.startsWith(`tmp${path.sep}`));
    const suspicious = named === 0 && stored.length >= SUSPICIOUS_UNNAMED;
    if (suspicious) this.opts.log.error({ files: stored.length }, 'orphan file sweep: no row names any stored file; is DATABASE_URL the right database? Only tmp/ is swept');
    const removed: string[] = [];
    let bytes = 0;
    const unsafe = new Set(suspicious ? stored : []);
    for (const c of orphans.filter((o) => !unsafe.has(o))) {
      // A file replaced since it was listed (a new upload of the same content-addressed file) is
      // not the orphan that was checked: it is left for its row.
      const now = await lstat(c.full).catch(() => undefined);
      if (!now?.isFile() || now.ino !== c.ino || now.mtimeMs !== c.mtimeMs) continue;
      await rm(c.full, { force: true });
      removed.push(c.relative);
      bytes += c.size;
    }
    if (removed.length > 0) {
      this.opts.log.info({ count: removed.length, bytes, files: removed.slice(0, LOGGED_PATHS) }, `orphan file sweep removed ${removed.length} file(s) with no row`);
    }
    return { removed, bytes };
  }

  private async referenced(paths: string[]): Promise<Set<string>> {
    const named = new Set<string>();
    for (const { table, column } of this.opts.references ?? fileReferences) {
      const rows = await this.opts.db.select({ path: column }).from(table).where(inArray(column, paths));
      for (const row of rows) if (typeof row.path === 'string') named.add(row.path);
    }
    return named;
  }
}

/** Regular files under `root`, walked without following any symbolic link. */
async function listFiles(root: string): Promise<Candidate[]> {
  const out: Candidate[] = [];
  const dirs = [root];
  for (let dir = dirs.pop(); dir !== undefined; dir = dirs.pop()) {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) dirs.push(full);
      if (!entry.isFile()) continue;
      const st = await lstat(full).catch(() => undefined);
      if (!st?.isFile()) continue;
      out.push({ relative: path.relative(root, full), full, ino: st.ino, mtimeMs: st.mtimeMs, size: st.size });
    }
  }
  return out;
}
