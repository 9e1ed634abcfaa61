import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const serverDir = path.resolve(import.meta.dirname, '..');
const password = 'Rest4rt#Mower';

interface Running {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** Starts the real composition root (`src/main.ts`) as its own process on free ports. */
function startProcess(dataDir: string): Promise<Running> {
  // The same command as `npm start`: one Node process, so signals reach the server itself.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      // Debug: each request is logged as it arrives (the SIGTERM below waits for that line).
      LOG_LEVEL: 'debug',
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      MQTT_PORT: '0',
      FLEET_SIZE: '0',
      ADMIN_PASSWORD: password,
      // The admin signs in with the password alone here (test/two-factor covers the policy).
      REQUIRE_2FA_ROLES: '',
      // The same process test on PostgreSQL would share one database across runs; PGlite's data dir is the subject here.
      DATABASE_URL: '',
      MQTT_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        child.stdout!.off('data', onData);
        child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
        resolve({ child, url: match[1]!, output: () => output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening:\n${output}`)));
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function call(url: string, method: string, body?: unknown, token?: string) {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { code: number; data: Record<string, unknown> } };
}

describe('process lifecycle on an embedded data dir', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mowerline-restart-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('finishes in-flight requests on SIGTERM, closes cleanly, and keeps everything across a restart', async () => {
    const first = await startProcess(dataDir);
    expect(first.output()).not.toContain(password); // a given admin password is never printed
    const login = await call(`${first.url}/api/admin/user/login`, 'POST', { username: 'admin', password });
    expect(login.body.code).toBe(0);
    const token = String(login.body.data.access_token);

    // A sign-in (argon2id, a database write) is in flight when the signal arrives: the signal is
    // sent once the server has logged that it received the request.
    const seen = (first.output().match(/incoming request/g) ?? []).length;
    const inFlight = call(`${first.url}/api/admin/user/login`, 'POST', { username: 'admin', password });
    while ((first.output().match(/incoming request/g) ?? []).length === seen) await new Promise((r) => setTimeout(r, 1));
    first.child.kill('SIGTERM');
    const [late, code] = await Promise.all([inFlight, exited(first.child)]);
    expect(late.body.code).toBe(0);
    expect(code).toBe(0);
    expect(first.output()).toContain('stopped cleanly');

    const second = await startProcess(dataDir);
    try {
      // The admin was not re-created (no new password), the session and both sign-ins survived.
      expect(second.output()).not.toContain('First start');
      const info = await call(`${second.url}/api/admin/user/info`, 'GET', undefined, token);
      expect(info.body.code).toBe(0);
      expect(info.body.data.username).toBe('admin');
      const log = await call(`${second.url}/api/admin/system/log?action=auth.login&pageSize=10`, 'GET', undefined, token);
      expect(log.body.code).toBe(0);
      expect(Number(log.body.data.total)).toBeGreaterThanOrEqual(2);
    } finally {
      second.child.kill('SIGTERM');
      await exited(second.child);
    }
  }, 240_000);
});
