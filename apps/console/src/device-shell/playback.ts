import type { ShellFrame } from '@mowerline/contract';

/** Long pauses in a recording are shortened to this, like asciinema's idle limit. */
export const MAX_PAUSE_MS = 2000;
export const playbackSpeeds = [0.5, 1, 2, 4, 8] as const;

export interface TimedFrame {
  /** Playback time of the frame at speed 1, pauses shortened. */
  at: number;
  kind: ShellFrame['kind'];
  bytes: Uint8Array;
}

function decode(base64: string): Uint8Array {
  const bin = atob(base64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Recording frames → a playback timeline (original order, pauses capped at MAX_PAUSE_MS). */
export function timeline(frames: readonly ShellFrame[]): TimedFrame[] {
  let prev = 0;
  let at = 0;
  return frames.map((f) => {
    at += Math.min(Math.max(0, f.at - prev), MAX_PAUSE_MS);
    prev = f.at;
    return { at, kind: f.kind, bytes: decode(f.data) };
  });
}

/** Everything the terminal showed: the output frames concatenated. */
export function shownBytes(frames: readonly TimedFrame[]): Uint8Array {
  const out = frames.filter((f) => f.kind === 'o');
  const total = out.reduce((n, f) => n + f.bytes.length, 0);
  const all = new Uint8Array(total);
  let o = 0;
  for (const f of out) {
    all.set(f.bytes, o);
    o += f.bytes.length;
  }
  return all;
}

/**
 * Plays a timeline: `write` gets each output frame at its time divided by the speed; `resize`
 * follows recorded resizes. Speed can change while playing; pause/resume keep the position.
 */
export class Player {
  private index = 0;
  private clock = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastTick = 0;
  speed = 1;

  constructor(
    private readonly frames: readonly TimedFrame[],
    private readonly sink: {
      write(bytes: Uint8Array): void;
      resize(cols: number, rows: number): void;
      progress(at: number, end: number): void;
      done(): void;
      /** Playing again from the start: the screen must be blank again. */
      restart?(): void;
    },
  ) {}

  get duration(): number {
    return this.frames.at(-1)?.at ?? 0;
  }

  get playing(): boolean {
    return this.timer !== undefined;
  }

  play(): void {
    if (this.playing) return;
    if (this.index >= this.frames.length) {
      this.index = this.clock = 0;
      this.sink.restart?.();
    }
    this.lastTick = performance.now();
    this.step();
  }

  pause(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  setSpeed(speed: number): void {
    this.speed = speed;
  }

  /** Writes everything at once (jump to the end). */
  finish(): void {
    this.pause();
    while (this.index < this.frames.length) this.emit(this.frames[this.index++]!);
    this.clock = this.duration;
    this.sink.progress(this.clock, this.duration);
    this.sink.done();
  }

  private step(): void {
    const now = performance.now();
    this.clock += (now - this.lastTick) * this.speed;
    this.lastTick = now;
    while (this.index < this.frames.length && this.frames[this.index]!.at <= this.clock) this.emit(this.frames[this.index++]!);
    this.sink.progress(Math.min(this.clock, this.duration), this.duration);
    if (this.index >= this.frames.length) {
      this.timer = undefined;
      this.sink.done();
      return;
    }
    const wait = (this.frames[this.index]!.at - this.clock) / this.speed;
    this.timer = setTimeout(() => this.step(), Math.max(0, Math.min(wait, 250)));
  }

  private emit(f: TimedFrame): void {
    if (f.kind === 'o') this.sink.write(f.bytes);
    else if (f.kind === 'r') {
      const [cols, rows] = new TextDecoder().decode(f.bytes).split('x').map(Number);
      if (cols && rows) this.sink.resize(cols, rows);
    }
  }
}
