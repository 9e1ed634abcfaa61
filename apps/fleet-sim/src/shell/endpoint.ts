import {
  PROTOCOL_VERSION,
  SHELL_MAX_CHUNK_BYTES,
  shellDownSchema,
  type ShellDown,
  type ShellOpenArgs,
  type ShellUp,
} from '@mowerline/contract';

/** What a program running in a session can do with its terminal. */
export interface ShellIo {
  write(data: string | Buffer): void;
  /** Ends the session from the device side (`exit`, reboot). */
  exit(reason: 'exit' | 'device_closed', message?: string): void;
  /** Output written and still waiting for credit: a program producing a lot waits while it is high. */
  pendingBytes(): number;
  readonly cols: number;
  readonly rows: number;
}

/** A program behind a session: the mower shell, or anything else speaking bytes. */
export interface ShellProgram {
  start(io: ShellIo): void;
  input(data: Buffer): void;
  resize?(cols: number, rows: number): void;
  /** The session ended (any side); release timers. */
  stop?(): void;
}

type UpBody = ShellUp extends infer U ? (U extends { seq: number; v: 1 } ? Omit<U, 'seq' | 'v'> : never) : never;

/** Output a session buffers on the device while it waits for credit; beyond it output is dropped. */
export const DEVICE_OUTPUT_BUFFER_BYTES = 4 * 1024 * 1024;

/**
 * The device's end of one shell session: numbers its messages, sends output only within the
 * credit the platform granted (`upTo`), drops repeated input (QoS 1 may redeliver), and ends the
 * session on its own when the platform goes silent or the maximum duration passes.
 */
export class ShellEndpoint implements ShellIo {
  private upSeq = 0;
  private lastDownSeq = -1;
  private sent = 0;
  private upTo: number;
  private queue: Buffer[] = [];
  private queued = 0;
  private lastHeard = Date.now();
  private ended = false;
  private pumpScheduled = false;
  private readonly timers: NodeJS.Timeout[] = [];
  cols: number;
  rows: number;

  constructor(
    readonly id: string,
    args: ShellOpenArgs,
    private readonly publish: (msg: ShellUp) => void,
    private readonly program: ShellProgram,
    private readonly onEnded: (id: string) => void,
  ) {
    this.cols = args.cols;
    this.rows = args.rows;
    this.upTo = args.window;
    this.timers.push(setTimeout(() => this.end('max_duration', 'maximum session time reached'), args.maxMs));
    this.timers.push(
      setInterval(() => {
        if (Date.now() - this.lastHeard > args.idleMs) this.end('idle');
      }, Math.min(10_000, args.idleMs)),
    );
  }

  start(): void {
    this.program.start(this);
  }

  /** A message on `…/shell/{sid}/in`. */
  receive(payload: Buffer): void {
    let msg: ShellDown;
    try {
      const parsed = shellDownSchema.safeParse(JSON.parse(payload.toString('utf8')));
      if (!parsed.success) return;
      msg = parsed.data;
    } catch {
      return;
    }
    if (this.ended || msg.seq <= this.lastDownSeq) return;
    this.lastDownSeq = msg.seq;
    this.lastHeard = Date.now();
    switch (msg.t) {
      case 'data':
        this.program.input(Buffer.from(msg.data, 'base64'));
        break;
      case 'resize':
        this.cols = msg.cols;
        this.rows = msg.rows;
        this.program.resize?.(msg.cols, msg.rows);
        break;
      case 'credit':
        if (msg.upTo > this.upTo) this.upTo = msg.upTo;
        this.pump();
        break;
      case 'close':
        this.stop();
        break;
      case 'ping':
        break;
    }
  }

  write(data: string | Buffer): void {
    if (this.ended) return;
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    if (buf.length === 0) return;
    // A runaway program cannot grow the device's memory either.
    if (this.queued + buf.length > DEVICE_OUTPUT_BUFFER_BYTES) return;
    this.queue.push(buf);
    this.queued += buf.length;
    // Writes of one turn of the event loop leave as one message, not one per line.
    if (!this.pumpScheduled) {
      this.pumpScheduled = true;
      setImmediate(() => {
        this.pumpScheduled = false;
        this.pump();
      });
    }
  }

  /** Bytes written and still waiting for credit. */
  pendingBytes(): number {
    return this.queued;
  }

  exit(reason: 'exit' | 'device_closed', message?: string): void {
    if (this.ended) return;
    this.pump();
    this.send({ t: 'close', reason, message });
    this.stop();
  }

  /** The device gives up on its own (idle platform): the platform is told, if it still listens. */
  private end(reason: 'idle' | 'max_duration', message?: string): void {
    if (this.ended) return;
    this.send({ t: 'close', reason, message });
    this.stop();
  }

  private stop(): void {
    if (this.ended) return;
    this.ended = true;
    for (const t of this.timers) clearTimeout(t);
    this.queue = [];
    this.queued = 0;
    this.program.stop?.();
    this.onEnded(this.id);
  }

  /** Sends queued output, coalesced into chunks of at most SHELL_MAX_CHUNK_BYTES, while credit lasts. */
  private pump(): void {
    while (this.queue.length > 0 && this.sent < this.upTo) {
      const room = Math.min(this.upTo - this.sent, SHELL_MAX_CHUNK_BYTES);
      const pieces: Buffer[] = [];
      let size = 0;
      while (this.queue.length > 0 && size < room) {
        const head = this.queue[0]!;
        const piece = head.subarray(0, room - size);
        if (piece.length === head.length) this.queue.shift();
        else this.queue[0] = head.subarray(piece.length);
        pieces.push(piece);
        size += piece.length;
      }
      this.queued -= size;
      this.send({ t: 'data', off: this.sent, data: Buffer.concat(pieces, size).toString('base64') });
      this.sent += size;
    }
  }

  private send(body: UpBody): void {
    this.publish({ v: PROTOCOL_VERSION, seq: this.upSeq++, ...body } as ShellUp);
  }
}
