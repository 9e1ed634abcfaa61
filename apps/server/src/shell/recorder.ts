import type { Db } from '../db/client.ts';
import { shellRecords } from './shell.sql.ts';

type Kind = 'o' | 'i' | 'r';
interface Pending {
  seq: number;
  atMs: number;
  kind: Kind;
  data: Buffer;
  done: () => void;
}

/**
 * Writes one session's recording in batches (a multi-row INSERT every `flushMs` or every
 * `flushBytes`). `add` resolves once the frame is stored, so the relay grants the device more
 * credit only for output that is both shown and recorded: a slow database slows the device down
 * instead of growing this buffer. Past `maxBytes` frames are no longer stored (truncated).
 */
export class Recorder {
  private pending: Pending[] = [];
  private pendingBytes = 0;
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  recordedBytes = 0;
  truncated = false;

  constructor(
    private readonly db: Db,
    private readonly sessionId: string,
    private readonly startedAt: number,
    private readonly opts: { maxBytes: number; flushMs: number; flushBytes: number; onError: (err: unknown) => void },
  ) {}

  add(kind: Kind, data: Buffer): Promise<void> {
    if (this.recordedBytes + data.length > this.opts.maxBytes) {
      this.truncated = true;
      return Promise.resolve();
    }
    this.recordedBytes += data.length;
    return new Promise<void>((done) => {
      this.pending.push({ seq: this.seq++, atMs: Date.now() - this.startedAt, kind, data, done });
      this.pendingBytes += data.length;
      if (this.pendingBytes >= this.opts.flushBytes) void this.flush();
      else this.timer ??= setTimeout(() => void this.flush(), this.opts.flushMs);
    });
  }

  /** Writes what is pending; batches are written one after another, in order. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    if (batch.length === 0) return this.writing;
    this.writing = this.writing.then(async () => {
      try {
        await this.db.insert(shellRecords).values(batch.map(({ seq, atMs, kind, data }) => ({ sessionId: this.sessionId, seq, atMs, kind, data })));
      } catch (err) {
        // A lost recording batch must not stall the live session; it is logged and marked truncated.
        this.truncated = true;
        this.opts.onError(err);
      }
      for (const p of batch) p.done();
    });
    return this.writing;
  }
}
