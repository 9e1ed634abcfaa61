import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ShellFrame } from '@mowerline/contract';
import { MAX_PAUSE_MS, Player, shownBytes, timeline } from './playback.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const frames: ShellFrame[] = [
  { seq: 0, at: 0, kind: 'o', data: b64('hello ') },
  { seq: 1, at: 100, kind: 'i', data: b64('x') },
  { seq: 2, at: 150, kind: 'r', data: b64('120x40') },
  { seq: 3, at: 60_000, kind: 'o', data: b64('world') },
];

describe('playback', () => {
  // Real timers again even when a test fails: the next suite in this worker needs them.
  afterEach(() => vi.useRealTimers());

  it('keeps the order and timings, shortening long pauses', () => {
    const line = timeline(frames);
    expect(line.map((f) => f.at)).toEqual([0, 100, 150, 150 + MAX_PAUSE_MS]);
    expect(new TextDecoder().decode(shownBytes(line))).toBe('hello world');
  });

  it('plays output and resizes at their times, faster at a higher speed', () => {
    vi.useFakeTimers();
    const written: string[] = [];
    const resized: string[] = [];
    let done = false;
    const player = new Player(timeline(frames), {
      write: (b) => written.push(new TextDecoder().decode(b)),
      resize: (c, r) => resized.push(`${c}x${r}`),
      progress: () => {},
      done: () => (done = true),
    });
    player.setSpeed(2);
    player.play();
    expect(written).toEqual(['hello ']);
    vi.advanceTimersByTime(100);
    expect(resized).toEqual(['120x40']);
    expect(written).toEqual(['hello ']);
    vi.advanceTimersByTime(MAX_PAUSE_MS / 2);
    expect(written).toEqual(['hello ', 'world']);
    expect(done).toBe(true);
  });
});
