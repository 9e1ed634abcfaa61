import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

const serverDir = path.resolve(import.meta.dirname, '..');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Where devices connect: the external broker of MQTT_URL, else the embedded broker's port. */
  mqttUrl: string;
  /** What the process printed so far (the last 200,000 characters once it is up). */
  output: () => string;
}

/**
 * The real composition root (`src/main.ts`) as its own process, for the suites that kill it:
 * embedded broker and PGlite in DATA_DIR unless `env` names MQTT_URL or DATABASE_URL. Resolves
 * once both the HTTP server and the device gateway are up.
 */
export function startServerProcess(env: Record<string, string>, adminPassword: string): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: '0', MQTT_PORT: '0', MQTT_URL: '', FLEET_SIZE: '0', ADMIN_PASSWORD: adminPassword, REQUIRE_2FA_ROLES: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const http = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      const gateway = /"mqttPort":(\d+|null)[^\n]*device gateway started/.exec(output);
      if (http && gateway) {
        child.stdout!.off('data', onData);
        child.stdout!.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-200_000)));
        resolve({ child, url: http[1]!, mqttUrl: env.MQTT_URL || `mqtt://127.0.0.1:${gateway[1]}`, output: () => output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening:\n${output}`)));
  });
}

/** One JSON call to such a process: the envelope's code and data. */
export async function callJson<T>(url: string, method: string, body?: unknown, token?: string): Promise<{ code: number; data: T }> {
  const res = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as { code: number; data: T };
}

/**
 * Where a killed-and-restarted server keeps its data: a temporary DATA_DIR, and with
 * TEST_DATABASE_URL a database of its own on that server (created by `databaseUrl()`, '' on
 * PGlite). `cleanup()` kills the children still running and removes both.
 */
export function scratchStore(name: string) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `mowerline-${name}-`));
  const adminUrl = process.env.TEST_DATABASE_URL;
  const dbName = `mowerline_${name.replaceAll('-', '_')}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const children: ChildProcess[] = [];
  const asAdmin = async (statement: string) => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(statement);
    await admin.end();
  };
  return {
    dataDir,
    children,
    async databaseUrl(): Promise<string> {
      if (!adminUrl) return '';
      await asAdmin(`CREATE DATABASE ${dbName}`);
      return Object.assign(new URL(adminUrl), { pathname: `/${dbName}` }).toString();
    },
    async cleanup(): Promise<void> {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
      if (adminUrl) await asAdmin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    },
  };
}
