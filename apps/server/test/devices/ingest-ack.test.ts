import { describe, expect, it } from 'vitest';
import { deviceTopic, deviceTopics } from '@mowerline/contract';
import { Counters } from '../../src/gateway/counters.ts';
import { Ingest, type Batch } from '../../src/gateway/ingest.ts';
import { telemetryPayload } from './fixtures.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const silent = { warn() {}, debug() {} };
const telemetry = (sn: string, ts: number) => Buffer.from(JSON.stringify(telemetryPayload({ ts })));
const topic = (sn: string) => deviceTopic(sn, deviceTopics.telemetry);

/** Acknowledge-after-write (DEVICE_ACK_AFTER_WRITE): what the ingest promises the bus. */
describe('ingest acknowledgements', () => {
  it('acknowledges a message only after the write holding it, in receive order, and an invalid one at once', async () => {
    const events: string[] = [];
    const ingest = new Ingest(
      async (batch: Batch) => {
        await sleep(10);
        for (const m of batch.telemetry) events.push(`written ${m.sn}:${m.body.ts}`);
      },
      new Counters(),
      { flushMs: 5, batchMax: 100, maxPending: 1000, maxAttempts: 3, writers: 2, ackAfterWrite: true, log: silent },
    );
    for (let i = 0; i < 5; i++) for (const sn of ['ACKA1', 'ACKB2']) ingest.accept(topic(sn), telemetry(sn, 1_700_000_000_000 + i), new Date(), () => events.push(`acked ${sn}:${1_700_000_000_000 + i}`));
    ingest.accept(topic('ACKA1'), Buffer.from('not json'), new Date(), () => events.push('acked invalid'));
    expect(events).toEqual(['acked invalid']);
    await ingest.drain();
    for (const sn of ['ACKA1', 'ACKB2']) {
      const acks = events.filter((e) => e.startsWith(`acked ${sn}`));
      expect(acks).toEqual(Array.from({ length: 5 }, (_, i) => `acked ${sn}:${1_700_000_000_000 + i}`));
      for (const ack of acks) expect(events.indexOf(ack.replace('acked', 'written'))).toBeLessThan(events.indexOf(ack));
    }
  });

  it('keeps retrying a batch the database cannot take, acknowledging nothing until it is written', async () => {
    let failures = 8;
    const acked: number[] = [];
    const counters = new Counters();
    const ingest = new Ingest(
      async () => {
        if (failures-- > 0) throw Object.assign(new Error('connection lost'), { code: '08006' });
      },
      counters,
      { flushMs: 1, batchMax: 100, maxPending: 1000, maxAttempts: 3, writers: 1, ackAfterWrite: true, log: silent },
    );
    ingest.accept(topic('ACKC3'), telemetry('ACKC3', 1_700_000_000_000), new Date(), () => acked.push(1));
    await ingest.flush();
    expect(acked).toEqual([]);
    // Beyond maxAttempts (3): without acknowledge-after-write it would be dropped by now.
    while (failures > 0) await ingest.flush();
    await ingest.drain();
    expect(acked).toEqual([1]);
    expect(counters.snapshot()['dropped.writeFailed']).toBeUndefined();
    expect(counters.snapshot()['flush.failures']).toBe(8);
  });

  it('on shutdown with the database away, leaves the messages unacknowledged', async () => {
    const acked: number[] = [];
    const counters = new Counters();
    const ingest = new Ingest(
      async () => {
        throw Object.assign(new Error('connection lost'), { code: '08006' });
      },
      counters,
      { flushMs: 1, batchMax: 100, maxPending: 1000, maxAttempts: 2, writers: 1, ackAfterWrite: true, log: silent },
    );
    ingest.accept(topic('ACKD4'), telemetry('ACKD4', 1_700_000_000_000), new Date(), () => acked.push(1));
    await ingest.stop();
    expect(acked).toEqual([]);
    expect(counters.snapshot()['unacknowledged.abandoned']).toBe(1);
    expect(ingest.size()).toBe(0);
  });

  it('acknowledges a message the database refuses for its rows (sending it again would not help)', async () => {
    const acked: string[] = [];
    const ingest = new Ingest(
      async (batch) => {
        if (batch.telemetry.some((m) => m.sn === 'ACKBAD')) throw Object.assign(new Error('bad row'), { code: '22021' });
      },
      new Counters(),
      { flushMs: 1, batchMax: 100, maxPending: 1000, maxAttempts: 2, writers: 1, ackAfterWrite: true, log: silent },
    );
    for (const sn of ['ACKOK1', 'ACKBAD', 'ACKOK2']) ingest.accept(topic(sn), telemetry(sn, 1_700_000_000_000), new Date(), () => acked.push(sn));
    await ingest.drain();
    expect(acked.sort()).toEqual(['ACKBAD', 'ACKOK1', 'ACKOK2']);
  });
});
