import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { eventTypes, type DomainEvent, type EventSubscriberStatus } from '@mowerline/contract';
import { emit } from '../../src/events/emit.ts';
import { Dispatcher, type Subscriber } from '../../src/events/dispatcher.ts';
import { trimEvents } from '../../src/events/retention.ts';
import { events, eventDeliveries } from '../../src/events/events.sql.ts';
import { staffUsers } from '../../src/staff/staff.sql.ts';
import { startServer, type TestServer } from '../harness.ts';
import { waitFor } from '../devices/fixtures.ts';

const quiet = { warn: () => {} };
const options = (nodeId: string) => ({ nodeId, leaseMs: 30_000, pollMs: 200, retryBaseMs: 100, retryMaxMs: 400, claimBatch: 20, log: quiet });

describe('the event outbox', () => {
  let server: TestServer;
  const running: Dispatcher[] = [];

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    for (const d of running) await d.stop();
    await server?.close();
  });

  async function startDispatcher(nodeId: string, subscribers: Subscriber[]): Promise<Dispatcher> {
    const d = new Dispatcher(server.ctx.db, subscribers, options(nodeId));
    await d.start();
    running.push(d);
    return d;
  }
  const eventsOf = async (subject: string) => server.ctx.db.select().from(events).where(eq(events.subject, subject));

  it('commits an event with its change, and rolls both back together', async () => {
    const change = (name: string, fail: boolean) =>
      server.ctx.db.transaction(async (tx) => {
        await tx.update(staffUsers).set({ name }).where(eq(staffUsers.username, 'admin'));
        await emit(tx, { type: 'ota.campaign.paused', subject: 'staff:rollback', payload: { campaignId: 1, name: 'rollback', reason: 'MANUAL' } });
        if (fail) throw new Error('forced failure after the change');
      });
    await expect(change('Rolled Back', true)).rejects.toThrow('forced failure');
    const [admin] = await server.ctx.db.select().from(staffUsers).where(eq(staffUsers.username, 'admin'));
    expect(admin!.name).not.toBe('Rolled Back');
    expect(await eventsOf('staff:rollback')).toEqual([]);

    await change('Committed', false);
    const [after] = await server.ctx.db.select().from(staffUsers).where(eq(staffUsers.username, 'admin'));
    expect(after!.name).toBe('Committed');
    const [event] = await eventsOf('staff:rollback');
    expect(event).toMatchObject({ type: 'ota.campaign.paused', version: 1 });
    expect(eventTypes['ota.campaign.paused'].payload.parse(event!.payload)).toEqual(event!.payload);
  });

  it('refuses a payload the catalogue does not accept, and the change with it', async () => {
    const attempt = server.ctx.db.transaction(async (tx) => {
      await tx.update(staffUsers).set({ name: 'Bad Payload' }).where(eq(staffUsers.username, 'admin'));
      await emit(tx, { type: 'device.connected', subject: 'BAD-1', payload: { sn: 'BAD-1' } as never });
    });
    await expect(attempt).rejects.toThrow();
    const [admin] = await server.ctx.db.select().from(staffUsers).where(eq(staffUsers.username, 'admin'));
    expect(admin!.name).not.toBe('Bad Payload');
    expect(await eventsOf('BAD-1')).toEqual([]);
  });

  it('delivers each event once per subscriber, in order per subject, across two dispatchers', async () => {
    const seen = new Map<string, Array<{ subject: string; seq: number; id: string }>>();
    const recorder = (name: string): Subscriber => ({
      name,
      types: ['device.state_changed'],
      async handle(e) {
        const list = seen.get(name) ?? [];
        list.push({ subject: e.subject, seq: Date.parse((e.payload as { at: string }).at), id: e.id });
        seen.set(name, list);
        // A little work per event, so the two dispatchers really interleave.
        await new Promise((r) => setTimeout(r, 1));
      },
    });
    // Both nodes run both subscribers (as every node runs every module).
    await startDispatcher('node-a', [recorder('order-a'), recorder('order-b')]);
    await startDispatcher('node-b', [recorder('order-a'), recorder('order-b')]);
    const subjects = ['ORD-1', 'ORD-2', 'ORD-3', 'ORD-4'];
    // Concurrent writers: each subject's changes come in order (as a row lock orders them), the
    // subjects interleave freely.
    await Promise.all(
      subjects.map(async (sn) => {
        for (let seq = 1; seq <= 40; seq++) {
          await server.ctx.db.transaction((tx) => emit(tx, { type: 'device.state_changed', subject: sn, payload: { sn, from: 'idle', to: 'mowing', at: new Date(seq * 1000).toISOString() } }));
        }
      }),
    );
    for (const name of ['order-a', 'order-b']) {
      const list = await waitFor(async () => ((seen.get(name)?.length ?? 0) >= 160 ? seen.get(name) : undefined), 60_000, `${name} to see every event`);
      expect(new Set(list.map((e) => e.id)).size).toBe(160);
      expect(list).toHaveLength(160);
      for (const sn of subjects) expect(list.filter((e) => e.subject === sn).map((e) => e.seq / 1000)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    }
    expect(await server.ctx.db.select().from(eventDeliveries).where(sql`${eventDeliveries.subscriber} like 'order-%'`)).toEqual([]);
  });

  it('retries a throwing subscriber with backoff, and the others do not wait for it', async () => {
    const healthy: DomainEvent[] = [];
    let failures = 0;
    let broken = true;
    let flakyGot: DomainEvent | undefined;
    await startDispatcher('node-c', [
      { name: 'healthy', types: ['ota.campaign.resumed'], handle: async (e) => void healthy.push(e) },
      {
        name: 'flaky',
        types: ['ota.campaign.resumed'],
        async handle(e) {
          if (broken) throw new Error(`down for the ${++failures}. time`);
          flakyGot = e;
        },
      },
    ]);
    await server.ctx.db.transaction((tx) => emit(tx, { type: 'ota.campaign.resumed', subject: 'campaign:7', payload: { campaignId: 7, name: 'flaky' } }));
    await waitFor(async () => (healthy.length === 1 ? true : undefined), 20_000, 'the healthy subscriber');
    // While the flaky one fails, admins see it failing with its error.
    const token = await server.login();
    const failing = await waitFor(
      async () => {
        const res = await server.api<{ subscribers: EventSubscriberStatus[] }>('GET', '/api/admin/system/event-delivery', { token });
        const flaky = res.body.data.subscribers.find((s) => s.name === 'flaky');
        return flaky && flaky.failing === 1 ? flaky : undefined;
      },
      20_000,
      'the failing subscriber in the delivery view',
    );
    expect(failing).toMatchObject({ pending: 1, lastError: expect.stringMatching(/^down for the/) });
    // Retried again and again (with growing pauses), until it works.
    await waitFor(async () => failures >= 3, 20_000, 'retries');
    broken = false;
    await waitFor(async () => flakyGot, 30_000, 'the flaky subscriber to succeed');
    expect(flakyGot!.id).toBe(healthy[0]!.id);
    expect(healthy).toHaveLength(1);
  });

  it('deletes handled events past the retention in batches, and keeps pending ones', async () => {
    await server.ctx.db.transaction((tx) =>
      emit(
        tx,
        ...Array.from({ length: 5 }, (_, i) => ({ type: 'device.disconnected' as const, subject: `old-${i}`, payload: { sn: `OLD-${i}`, at: new Date().toISOString() } })),
      ),
    );
    await server.ctx.db.execute(sql`update events set created_at = now() - interval '8 days' where subject like 'old-%'`);
    // One of them still pending for a subscriber.
    const [kept] = await eventsOf('old-0');
    await server.ctx.db.insert(eventDeliveries).values({ subscriber: 'retention-test', eventId: kept!.id, subject: kept!.subject });
    expect(await trimEvents(server.ctx.db, 7, 2)).toBeGreaterThanOrEqual(4);
    const left = await server.ctx.db.select().from(events).where(sql`${events.subject} like 'old-%'`);
    expect(left.map((e) => e.subject)).toEqual(['old-0']);
  });
});
