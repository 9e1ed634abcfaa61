import { describe, expect, it } from 'vitest';
import type { AedesPacket } from 'aedes-packet';
import { topicMatches } from '@mowerline/contract';
import { IndexedRetainedPersistence } from '../../src/gateway/retained-index.ts';

const packet = (topic: string, payload: string) => ({ cmd: 'publish', topic, payload: Buffer.from(payload), qos: 1, retain: true, dup: false }) as unknown as AedesPacket;

async function read(store: IndexedRetainedPersistence, filters: string[]): Promise<string[]> {
  const topics: string[] = [];
  for await (const p of store.createRetainedStreamCombi(filters)) topics.push((p as { topic: string }).topic);
  return topics.sort();
}

describe('retained messages indexed by device', () => {
  it('answers every kind of filter exactly like a full scan', async () => {
    const store = new IndexedRetainedPersistence();
    const topics: string[] = [];
    for (let i = 0; i < 50; i++) {
      const sn = `IDX${String(i).padStart(4, '0')}`;
      for (const suffix of ['status', 'ota/state', 'shell/abc/out']) topics.push(`mowerline/v1/${sn}/${suffix}`);
    }
    topics.push('mowerline/v1', 'mowerline/v1/IDX0001', 'other/x/y/z', '$SYS/broker/uptime');
    for (const t of topics) await store.storeRetained(packet(t, `payload of ${t}`));
    // Cleared by an empty payload, as MQTT says.
    await store.storeRetained(packet('mowerline/v1/IDX0002/status', ''));
    const live = topics.filter((t) => t !== 'mowerline/v1/IDX0002/status');

    const filters = [
      'mowerline/v1/IDX0001/status',
      'mowerline/v1/IDX0001/#',
      'mowerline/v1/IDX0001/+',
      'mowerline/v1/IDX0001/shell/+/out',
      'mowerline/v1/IDX0002/status',
      'mowerline/v1/+/status',
      'mowerline/+/IDX0003/#',
      'mowerline/v1/#',
      'mowerline/v1',
      '#',
      '+/x/#',
      'nothing/here',
    ];
    for (const filter of filters) {
      expect(await read(store, [filter]), filter).toEqual(live.filter((t) => topicMatches(filter, t)).sort());
    }
    // Several filters at once: each message once.
    expect(await read(store, ['mowerline/v1/IDX0001/#', 'mowerline/v1/+/status'])).toEqual(
      live.filter((t) => topicMatches('mowerline/v1/IDX0001/#', t) || topicMatches('mowerline/v1/+/status', t)).sort(),
    );
  });

  it('finds each device’s own retained presence among 20,000 through its own filters', async () => {
    const store = new IndexedRetainedPersistence();
    const n = 20_000;
    for (let i = 0; i < n; i++) await store.storeRetained(packet(`mowerline/v1/S${i}/status`, 'online'));
    let yielded = 0;
    for (let i = 0; i < n; i++) for (const p of store.matching([`mowerline/v1/S${i}/cmd/req`, `mowerline/v1/S${i}/#`])) yielded += p ? 1 : 0;
    expect(yielded).toBe(n);
  });
});
