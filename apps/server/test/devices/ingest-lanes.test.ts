import { describe, expect, it } from 'vitest';
import { deviceTopic, deviceTopics } from '@mowerline/contract';
import { Counters } from '../../src/gateway/counters.ts';
import { Ingest, type Batch } from '../../src/gateway/ingest.ts';
import { telemetryPayload } from './fixtures.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const silent = { warn() {}, debug() {} };

describe('ingest writer lanes', () => {
  it('writes side by side, each device by one writer at a time and in order', async () => {
    const written = new Map<string, number[]>();
    const inFlight = new Set<string>();
    let concurrent = 0;
    let maxConcurrent = 0;
    const write = async (batch: Batch) => {
      const sns = new Set(batch.telemetry.map((m) => m.sn));
      for (const sn of sns) expect(inFlight.has(sn), `${sn} in two writes at once`).toBe(false);
      for (const sn of sns) inFlight.add(sn);
      maxConcurrent = Math.max(maxConcurrent, ++concurrent);
      await sleep(5 + Math.random() * 20);
      for (const m of batch.telemetry) written.set(m.sn, [...(written.get(m.sn) ?? []), m.body.ts]);
      for (const sn of sns) inFlight.delete(sn);
      concurrent--;
    };
    const ingest = new Ingest(write, new Counters(), { flushMs: 5, batchMax: 50, maxPending: 100_000, maxAttempts: 3, writers: 4, log: silent });
    const sns = Array.from({ length: 200 }, (_, i) => `LANE${String(i).padStart(4, '0')}`);
    for (let round = 0; round < 20; round++) {
      for (const sn of sns) ingest.accept(deviceTopic(sn, deviceTopics.telemetry), Buffer.from(JSON.stringify(telemetryPayload({ ts: 1_700_000_000_000 + round }))));
      await sleep(2);
    }
    await ingest.drain();
    expect(maxConcurrent).toBeGreaterThan(1);
    for (const sn of sns) expect(written.get(sn), sn).toEqual(Array.from({ length: 20 }, (_, round) => 1_700_000_000_000 + round));
    expect(ingest.size()).toBe(0);
  });

  it('with one writer, never writes two batches at once, nor more than twenty batches’ worth in one', async () => {
    let concurrent = 0;
    let maxConcurrent = 0;
    let rows = 0;
    let largest = 0;
    const ingest = new Ingest(
      async (batch) => {
        largest = Math.max(largest, batch.telemetry.length);
        maxConcurrent = Math.max(maxConcurrent, ++concurrent);
        await sleep(10);
        rows += batch.telemetry.length;
        concurrent--;
      },
      new Counters(),
      { flushMs: 5, batchMax: 10, maxPending: 100_000, maxAttempts: 3, writers: 1, log: silent },
    );
    for (let i = 0; i < 500; i++) ingest.accept(deviceTopic(`ONE${i % 37}`, deviceTopics.telemetry), Buffer.from(JSON.stringify(telemetryPayload({ ts: 1_700_000_000_000 + i }))));
    await ingest.stop();
    expect(maxConcurrent).toBe(1);
    expect(rows).toBe(500);
    // 490 waiting behind the first slow write still go 200 (20 × batchMax) at a time.
    expect(largest).toBe(200);
  });

  it('behind a stalled database keeps at most 1 % over maxPending, drops the oldest telemetry and counts it', async () => {
    let release!: () => void;
    const stalled = new Promise<void>((r) => (release = r));
    const written: number[] = [];
    const counters = new Counters();
    const ingest = new Ingest(
      async (batch) => {
        await stalled;
        for (const m of batch.telemetry) written.push(m.body.ts);
      },
      counters,
      { flushMs: 1, batchMax: 10, maxPending: 1000, maxAttempts: 3, writers: 1, log: silent },
    );
    const sent = 5000;
    for (let i = 0; i < sent; i++) {
      ingest.accept(deviceTopic('FULL0001', deviceTopics.telemetry), Buffer.from(JSON.stringify(telemetryPayload({ ts: 1_700_000_000_000 + i }))));
      // The first flush took its 10 rows before the buffer filled; the rest waits.
      expect(ingest.size()).toBeLessThanOrEqual(1010);
    }
    release();
    await ingest.stop();
    expect(written.length + counters.get('dropped.overflow')).toBe(sent);
    // Oldest dropped: what is written is the first batch, then the newest, in order.
    expect(written.slice(10)).toEqual([...written.slice(10)].sort((a, b) => a - b));
    expect(written.at(-1)).toBe(1_700_000_000_000 + sent - 1);
    expect(written.length).toBeGreaterThanOrEqual(1000);
  });
});
