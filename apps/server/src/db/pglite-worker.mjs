// The embedded database on its own thread (see pglite-thread.ts). Plain JavaScript so that any
// loader (node --import tsx, vitest) can start it.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const identity = (value) => value;
// A template (a dumped data directory) skips initdb and every migration: test suites start
// hundreds of fresh databases, and creating each from nothing is most of their start-up.
const db = await PGlite.create(
  workerData.dataDir,
  workerData.template ? { loadDataDir: new Blob([readFileSync(workerData.template)]) } : {},
);
/** Open transactions by id: the handle PGlite gave us, and how to end it. */
const transactions = new Map();
let nextTransaction = 1;

function reply(id, result) {
  parentPort.postMessage({ id, ok: true, result });
}

function fail(id, err) {
  // Structured clone keeps only message and name of an Error: copy the database's fields
  // (code, constraint, detail…) so callers can still tell a unique violation from other errors.
  const error = { message: err?.message ?? String(err), name: err?.name ?? 'Error' };
  for (const [key, value] of Object.entries(err ?? {})) {
    if (['string', 'number', 'boolean'].includes(typeof value)) error[key] = value;
  }
  parentPort.postMessage({ id, ok: false, error });
}

function target(tx) {
  if (tx === undefined) return db;
  const open = transactions.get(tx);
  if (!open) throw new Error(`transaction ${tx} is not open`);
  return open.handle;
}

/** Opens a transaction that stays open, its statements arriving one message at a time, until commit or rollback. */
function begin(id) {
  const tx = nextTransaction++;
  const open = {};
  const ended = new Promise((resolve, reject) => (open.end = { resolve, reject }));
  ended.catch(() => {});
  open.settled = db
    .transaction(async (handle) => {
      open.handle = handle;
      transactions.set(tx, open);
      reply(id, { tx });
      await ended;
    })
    .finally(() => transactions.delete(tx));
  // A failure to begin reaches the caller; one at the end is reported by finish().
  open.settled.catch((err) => {
    if (open.handle === undefined) fail(id, err);
  });
}

async function finish(id, tx, commit) {
  const open = transactions.get(tx);
  if (!open) throw new Error(`transaction ${tx} is not open`);
  if (commit) open.end.resolve();
  else open.end.reject(Object.assign(new Error('rolled back'), { rolledBack: true }));
  try {
    await open.settled;
    reply(id, null);
  } catch (err) {
    if (err?.rolledBack) reply(id, null);
    else throw err;
  }
}

parentPort.on('message', async (m) => {
  try {
    switch (m.op) {
      case 'query': {
        const parsers = Object.fromEntries((m.rawTypes ?? []).map((oid) => [oid, identity]));
        return reply(m.id, await target(m.tx).query(m.sql, m.params, { rowMode: m.rowMode, parsers }));
      }
      case 'exec':
        return reply(m.id, await target(m.tx).exec(m.sql));
      case 'begin':
        return begin(m.id);
      case 'commit':
      case 'rollback':
        return await finish(m.id, m.tx, m.op === 'commit');
      case 'listen':
        // Notifications go to the main thread at commit, as a listening connection gets them.
        await db.listen(m.channel, (payload) => parentPort.postMessage({ notification: { channel: m.channel, payload } }));
        return reply(m.id, null);
      case 'close':
        await db.close();
        return reply(m.id, null);
      default:
        throw new Error(`unknown operation ${m.op}`);
    }
  } catch (err) {
    fail(m.id, err);
  }
});

parentPort.postMessage({ ready: true });
