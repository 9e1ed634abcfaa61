/**
 * Two server nodes on the machine's PostgreSQL and Mosquitto, as in docs/deploy.md, and a smoke
 * test across them: node A starts on a fresh database, node B joins it, a sign-in on node A works
 * on node B, what B creates A reads, a simulated mower registered through B connects to the broker,
 * and a remote shell to it opens through each node.
 *
 *   npx tsx tools/two-node-smoke.ts
 *
 * SMOKE_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres: a user that may create
 * databases), SMOKE_MQTT_URL (default mqtt://127.0.0.1:1883). Exits non-zero on the first failure;
 * always stops the nodes and drops its database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import WebSocket from 'ws';
import { SHELL_WS_PATH, type ShellServerMessage } from '@mowerline/contract';
import { startFleet, type Fleet } from '../apps/fleet-sim/src/index.ts';

const PG_URL = process.env.SMOKE_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MQTT_URL = process.env.SMOKE_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const ADMIN_PASSWORD = `Smoke#${randomBytes(6).toString('hex')}A1`;
// The same on every node (docs/deploy.md): a token one node signs, the other must accept.
const JWT_SECRET = randomBytes(48).toString('base64url');
const root = path.resolve(import.meta.dirname, '..');
const run = `${process.pid}_${randomBytes(3).toString('hex')}`;
const dbName = `mowerline_smoke_${run}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'mowerline-smoke-'));
const started = Date.now();

const say = (line: string) => process.stdout.write(`[smoke ${((Date.now() - started) / 1000).toFixed(1)}s] ${line}\n`);
function check(ok: unknown, what: string): asserts ok {
  if (!ok) throw new Error(`FAILED: ${what}`);
  say(`ok: ${what}`);
}

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

interface Node {
  name: string;
  url: string;
  proc: ChildProcess;
  exited: Promise<number | null>;
}

/** One server node: the production entry point in its own process, configured as deploy.md says. */
function startNode(name: string, port: number, databaseUrl: string): Node {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.join(root, 'apps/server'),
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      MQTT_URL,
      // Its own group: other servers on this broker (tests, benchmarks) must not take its messages.
      MQTT_SHARE_GROUP: `smoke_${run}`,
      DATA_DIR: dataDir,
      JWT_SECRET,
      ADMIN_PASSWORD,
      // What crosses nodes is under test, not the second factor (apps/server/test/two-factor).
      REQUIRE_2FA_ROLES: '',
      FLEET_SIZE: '0',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = (chunk: Buffer) =>
    chunk
      .toString()
      .split('\n')
      .filter(Boolean)
      .forEach((l) => process.stdout.write(`  [node ${name}] ${l}\n`));
  proc.stdout!.on('data', prefix);
  proc.stderr!.on('data', prefix);
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { name, url: `http://127.0.0.1:${port}`, proc, exited };
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`FAILED: timed out waiting for ${what}${last ? ` (${String(last)})` : ''}`);
}

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

async function call<T>(node: Node, method: string, p: string, opts: { token?: string; body?: unknown } = {}): Promise<{ status: number; body: Envelope<T> }> {
  const headers: Record<string, string> = { 'accept-language': 'en-US' };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(node.url + p, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  return { status: res.status, body: (await res.json()) as Envelope<T> };
}

/** A browser's shell socket through `node`: auth, open, one command, its output, close. */
async function shellThrough(node: Node, token: string, sn: string): Promise<string> {
  const ws = new WebSocket(node.url.replace('http', 'ws') + SHELL_WS_PATH);
  const messages: ShellServerMessage[] = [];
  let output = '';
  ws.on('message', (data, isBinary) => {
    const text = (Buffer.isBuffer(data) ? data : Buffer.concat(data as Buffer[])).toString('utf8');
    if (isBinary) output += text;
    else messages.push(JSON.parse(text) as ShellServerMessage);
  });
  await new Promise<void>((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const next = (types: string[]) => waitFor(`shell message ${types.join('/')} from node ${node.name}`, async () => messages.find((m) => types.includes(m.type)), 30_000);
  try {
    ws.send(JSON.stringify({ type: 'auth', token }));
    const ready = await next(['ready', 'error']);
    if (ready.type === 'error') throw new Error(`FAILED: shell auth on node ${node.name}: ${ready.msg}`);
    ws.send(JSON.stringify({ type: 'open', sn, cols: 80, rows: 24 }));
    const opened = await next(['opened', 'error']);
    if (opened.type === 'error') throw new Error(`FAILED: shell open on node ${node.name}: ${opened.msg}`);
    // Generous waits: on a loaded CI machine the broker round trips can take seconds.
    await waitFor(`the mower's prompt through node ${node.name}`, async () => output.includes(`@${sn.toLowerCase()}`), 30_000);
    ws.send(JSON.stringify({ type: 'input', data: 'uptime\r' }));
    await waitFor(`uptime output through node ${node.name}`, async () => /up \d/.test(output), 30_000).catch((err: Error) => {
      throw new Error(`${err.message}; output so far: ${JSON.stringify(output.slice(-300))}; messages: ${JSON.stringify(messages)}`);
    });
    ws.send(JSON.stringify({ type: 'close' }));
    await next(['closed']);
    return output;
  } finally {
    ws.close();
  }
}

const healthy = (n: Node) => waitFor(`node ${n.name} healthy`, async () => (await call(n, 'GET', '/api/health')).status === 200, 60_000);

async function smoke(a: Node, b: Node): Promise<void> {
  await healthy(b);
  check(true, 'node B joined node A on the same database');

  const signIn = await call<{ access_token: string }>(a, 'POST', '/api/admin/user/login', { body: { username: 'admin', password: ADMIN_PASSWORD } });
  check(signIn.body.code === 0, 'sign in on node A');
  const token = signIn.body.data.access_token;
  const info = await call<{ username: string }>(b, 'GET', '/api/admin/user/info', { token });
  check(info.body.code === 0 && info.body.data.username === 'admin', "node B accepts node A's session");

  const code = `SMOKE-${randomBytes(3).toString('hex').toUpperCase()}`;
  const created = await call<{ id: number }>(b, 'POST', '/api/admin/product/model', { token, body: { code, name: 'Smoke test mower' } });
  check(created.body.code === 0, 'create a product model on node B');
  const models = await call<Array<{ code: string }>>(a, 'GET', '/api/admin/product/model', { token });
  check(models.body.data.some((m) => m.code === code), 'node A reads the model node B created');

  // One simulated mower, registered through node B's API, connected to the broker.
  const prefix = `SMK${randomBytes(2).toString('hex').toUpperCase()}`;
  let fleet: Fleet | undefined;
  try {
    fleet = await startFleet({ count: 1, mqttUrl: MQTT_URL, apiUrl: b.url, token, snPrefix: prefix, seed: 7, keepaliveS: 30 });
    const sn = fleet.mowers[0]!.sn;
    await waitFor(`${sn} online (seen through node A)`, async () => {
      const d = await call<{ online: boolean }>(a, 'GET', `/api/admin/device/${sn}`, { token });
      return d.body.code === 0 && d.body.data.online;
    });
    check(true, `mower ${sn} registered through node B, online as seen by node A`);

    for (const node of [a, b]) {
      await shellThrough(node, token, sn);
      check(true, `remote shell to ${sn} through node ${node.name}: prompt, uptime, closed`);
    }
    const sessions = await call<{ list: Array<{ status: string }> }>(b, 'GET', `/api/admin/device/shell/session?sn=${sn}`, { token });
    check(sessions.body.data.list.length === 2 && sessions.body.data.list.every((s) => s.status === 'closed'), 'both shell sessions recorded and closed');
  } finally {
    await fleet?.stop();
  }
}

async function main(): Promise<void> {
  say(`database ${dbName}, broker ${MQTT_URL}`);
  await admin(`CREATE DATABASE ${dbName}`);
  const url = new URL(PG_URL);
  url.pathname = `/${dbName}`;
  const [portA, portB] = [await freePort(), await freePort()];
  const nodes: Node[] = [];
  const died = (n: Node) => n.exited.then((code) => Promise.reject(new Error(`FAILED: node ${n.name} exited (${code})`)));
  let failed = false;
  try {
    // On an empty database one node first (docs/deploy.md, "First start"), then the next joins.
    const a = startNode('A', portA, url.toString());
    nodes.push(a);
    await Promise.race([healthy(a), died(a)]);
    check(true, 'node A started on a fresh database');
    const b = startNode('B', portB, url.toString());
    nodes.push(b);
    await Promise.race([smoke(a, b), ...nodes.map(died)]);
    say('passed');
  } catch (err) {
    failed = true;
    console.error(err instanceof Error ? err.message : err);
  } finally {
    for (const n of nodes) n.proc.kill('SIGTERM');
    const stopped = await Promise.race([Promise.all(nodes.map((n) => n.exited)), new Promise((r) => setTimeout(() => r('timeout'), 20_000))]);
    if (stopped === 'timeout') {
      console.error('a node did not stop within 20 s of SIGTERM: killed');
      failed = true;
      for (const n of nodes) n.proc.kill('SIGKILL');
    }
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch((err: unknown) => console.error(`could not drop ${dbName}: ${String(err)}`));
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

void main();
