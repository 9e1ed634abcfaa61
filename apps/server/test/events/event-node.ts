/**
 * One "server node" of the event spine for the multi-node tests: a dispatcher on the PostgreSQL
 * database given in EVENT_NODE_DB with two subscribers that record every event they handle (a
 * repeat is recognised by its id and counted, not applied twice). SIGTERM stops it gracefully.
 */
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../src/db/client.ts';
import { Dispatcher, type Subscriber } from '../../src/events/dispatcher.ts';

const url = process.env.EVENT_NODE_DB!;
const nodeId = process.env.EVENT_NODE_ID!;
const database = await openDatabase({ url, dataDir: 'unused', onError: () => {} });
const { db } = database;

const recorder = (name: string): Subscriber => ({
  name,
  types: ['device.state_changed'],
  async handle(event) {
    // Slow enough that a kill lands mid-delivery.
    await new Promise((r) => setTimeout(r, 2));
    const fresh = await db.execute(sql`insert into handled (subscriber, event_id, node) values (${name}, ${event.id}, ${nodeId}) on conflict do nothing returning event_id`);
    if ((fresh as unknown as { rows: unknown[] }).rows.length === 0) await db.execute(sql`insert into repeats (subscriber, event_id) values (${name}, ${event.id})`);
  },
});

const dispatcher = new Dispatcher(db, [recorder('sub-one'), recorder('sub-two')], {
  nodeId,
  leaseMs: 2_000,
  pollMs: 250,
  retryBaseMs: 100,
  retryMaxMs: 1_000,
  claimBatch: 25,
  log: { warn: (o, m) => process.stderr.write(`${m} ${JSON.stringify(o)}\n`) },
});
await dispatcher.start();
const unlisten = await database.listen('event_deliveries', () => dispatcher.wake());
process.on('SIGTERM', () => {
  void (async () => {
    await unlisten();
    await dispatcher.stop();
    await database.close();
    process.exit(0);
  })();
});
process.stdout.write('ready\n');
