import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const serverDir = path.resolve(import.meta.dirname, '..');

/** The environment of `npm start` on its own data dir, on free ports, with no demo fleet. */
const envFor = (dataDir: string): NodeJS.ProcessEnv => ({
  ...process.env,
  NODE_ENV: 'test',
  LOG_LEVEL: 'info',
  DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  PORT: '0',
  MQTT_PORT: '0',
  FLEET_SIZE: '0',
  ADMIN_PASSWORD: '',
  DATABASE_URL: '',
  MQTT_URL: '',
});

/** Runs `src/main.ts` until `done(output)` holds. */
function startUntil(dataDir: string, done: (output: string) => boolean): Promise<{ child: ChildProcess; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: serverDir, env: envFor(dataDir), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (done(output)) resolve({ child, output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}

async function stop(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function login(url: string, password: string) {
  const res = await fetch(`${url}/api/admin/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password }) });
  return ((await res.json()) as { code: number }).code;
}

const listening = (output: string) => /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];

/** Issue 17 §13: the first password is the last thing start-up prints, and a lost one is recovered on the machine. */
describe('first admin password and its recovery', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mowerline-admin-password-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prints the first password framed after the start-up lines; the reset command replaces it', async () => {
    const first = await startUntil(dataDir, (out) => /Password: \S+/.test(out) && out.includes('console and API on'));
    await stop(first.child);
    const banner = first.output.lastIndexOf('First start');
    expect(banner).toBeGreaterThan(first.output.indexOf('console and API on'));
    expect(first.output.slice(banner)).toMatch(/│ Password: \S+\n[\s\S]*└─+/);
    const original = /Password: (\S+)/.exec(first.output)![1]!;

    const reset = spawnSync('npm', ['run', 'reset-admin-password', '--silent', '--', '--user', 'admin'], { cwd: serverDir, env: envFor(dataDir), encoding: 'utf8' });
    expect(reset.status, reset.stderr).toBe(0);
    const fresh = /New password for "admin": (\S+)/.exec(reset.stdout)?.[1];
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(original);

    const second = await startUntil(dataDir, (out) => !!listening(out));
    try {
      const url = listening(second.output)!;
      expect(second.output).not.toContain('First start');
      expect(await login(url, original)).not.toBe(0);
      expect(await login(url, fresh!)).toBe(0);
    } finally {
      await stop(second.child);
    }
  }, 600_000);
});
