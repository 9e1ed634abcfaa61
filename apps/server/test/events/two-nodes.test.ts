import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { emit } from '../../src/events/emit.ts';
import { waitFor } from '../devices/fixtures.ts';

/**
 * Two nodes on one PostgreSQL (the machine's, or TEST_DATABASE_URL's server): at least once per
 * subscriber, one node at a time per (subscriber, event), and a node killed mid-delivery leaves its
 * events to the other. PGlite is one process by nature, so this suite always runs on PostgreSQL.
 */
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const serverDir = path.resolve(import.meta.dirname, '../..');

describe('the event spine on two nodes', () => {
  const name = `mowerline_events_${process.pid}_${randomBytes(3).toString('hex')}`;
  const url = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  let database: Database;
  const nodes = new Map<string, ChildProcess>();

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    database = await openDatabase({ url, dataDir: 'unused', onError: () => {} });
    await database.db.execute(sql`create table handled (subscriber text, event_id bigint, node text, primary key (subscriber, event_id))`);
    await database.db.execute(sql`create table repeats (subscriber text, event_id bigint)`);
    // The subscribers exist before the events, as they do once any node has started.
    await database.db.execute(sql`insert into event_subscribers (name, types) values ('sub-one', '{device.state_changed}'), ('sub-two', '{device.state_changed}')`);
  });
  afterAll(async () => {
    for (const child of nodes.values()) child.kill('SIGKILL');
    await database?.close();
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  function startNode(id: string): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/events/event-node.ts'], {
      cwd: serverDir,
      env: { ...process.env, EVENT_NODE_DB: url, EVENT_NODE_ID: id },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    nodes.set(id, child);
    let output = '';
    return new Promise((resolve, reject) => {
      child.stdout!.on('data', (c: Buffer) => {
        output += c.toString();
        if (output.includes('ready')) resolve(child);
      });
      child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
      child.once('exit', (code) => reject(new Error(`node ${id} exited with ${code}:\n${output}`)));
    });
  }

  async function emitMany(from: number, count: number) {
    // 20 subjects, each in order; 50 events per transaction.
    for (let i = from; i < from + count; i += 50) {
      await database.db.transaction((tx) =>
        emit(
          tx,
          ...Array.from({ length: Math.min(50, from + count - i) }, (_, k) => {
            const n = i + k;
            const sn = `TWO-${n % 20}`;
            return { type: 'device.state_changed' as const, subject: sn, payload: { sn, from: 'idle' as const, to: 'mowing' as const, at: new Date(n * 1000).toISOString() } };
          }),
        ),
      );
    }
  }

  const count = async (q: ReturnType<typeof sql>) => Number(((await database.db.execute(q)) as unknown as { rows: Array<{ n: string }> }).rows[0]!.n);
  const handledBy = (sub: string) => count(sql`select count(*) as n from handled where subscriber = ${sub}`);

  it('handles 1,000 events exactly once per subscriber, shared between the nodes', async () => {
    await Promise.all([startNode('node-a'), startNode('node-b')]);
    await emitMany(0, 1000);
    for (const sub of ['sub-one', 'sub-two']) await waitFor(async () => (await handledBy(sub)) === 1000, 120_000, `${sub} to handle all 1,000`);
    expect(await count(sql`select count(*) as n from repeats`)).toBe(0);
    // A handled event is acknowledged just after its handler ran: the last batch's rows go a moment later.
    await waitFor(async () => (await count(sql`select count(*) as n from event_deliveries`)) === 0, 30_000, 'every delivery acknowledged');
    // Which node handles what is up to timing (one may claim everything while the other starts);
    // that the other node takes over is shown by the kill below.
    expect(await count(sql`select count(*) as n from handled where node not in ('node-a', 'node-b')`)).toBe(0);
  }, 240_000);

  it('loses nothing when a node is killed mid-delivery: the other takes over, repeats are dropped by id', async () => {
    await emitMany(1000, 1000);
    await waitFor(async () => (await count(sql`select count(*) as n from handled where event_id > (select min(id) + 999 from events)`)) >= 100, 60_000, 'delivery under way');
    nodes.get('node-a')!.kill('SIGKILL');
    for (const sub of ['sub-one', 'sub-two']) await waitFor(async () => (await handledBy(sub)) === 2000, 120_000, `${sub} to handle all 2,000`);
    expect(await count(sql`select count(*) as n from event_deliveries`)).toBe(0);
    // Whatever node-a had claimed but not handled went to node-b once its lease ran out.
    expect(await count(sql`select count(*) as n from handled h join events e on e.id = h.event_id where h.node = 'node-b' and e.id > (select min(id) + 999 from events)`)).toBeGreaterThan(0);
  }, 240_000);

  it('finishes the deliveries in flight on SIGTERM and exits 0, leaving nothing claimed', async () => {
    await emitMany(2000, 500);
    const nodeB = nodes.get('node-b')!;
    await waitFor(async () => (await handledBy('sub-one')) > 2000, 60_000, 'delivery under way');
    const exit = new Promise<number | null>((resolve) => nodeB.once('exit', (code) => resolve(code)));
    nodeB.kill('SIGTERM');
    expect(await exit).toBe(0);
    nodes.delete('node-b');
    // Nothing stays claimed by the stopped node: a fresh node finishes at once, without waiting for a lease.
    expect(await count(sql`select count(*) as n from event_deliveries where locked_by = 'node-b'`)).toBe(0);
    await startNode('node-c');
    for (const sub of ['sub-one', 'sub-two']) await waitFor(async () => (await handledBy(sub)) === 2500, 120_000, `${sub} to handle all 2,500`);
  }, 240_000);
});
