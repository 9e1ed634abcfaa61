import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { buildApp, type BuiltApp } from '../src/app.ts';
import { ensureInitialAdmin } from '../src/staff/bootstrap.ts';
import { answerProblem } from './answer-check.ts';

export const ADMIN = { username: 'admin', password: 'Str0ng#Mower26' } as const;

/**
 * argon2id at test strength: the same algorithm and checks, a fraction of the baseline's memory and
 * passes (thousands of sign-ins per run). loadConfig refuses it outside NODE_ENV=test.
 */
export const TEST_PASSWORD_HASH_COST = { memoryCost: 256, timeCost: 1 } as const;

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: { code: number; msg: string; data: T; status: 'ok' | 'fail' };
}

export interface TestServer extends BuiltApp {
  url: string;
  config: Config;
  database: Database;
  /** The PostgreSQL database of a fresh server (TEST_DATABASE_URL), for a second node with its own connections. */
  databaseUrl?: string;
  /** Real HTTP to the running server; JSON in, envelope out, checked against the contract (answer-check.ts). */
  api<T = unknown>(
    method: string,
    path: string,
    opts?: { body?: unknown; rawBody?: string; token?: string; lang?: string; headers?: Record<string, string> },
  ): Promise<ApiResponse<T>>;
  /** Signs in and returns the access token (throws on failure). */
  login(username?: string, password?: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * A fresh database for one server: PostgreSQL when TEST_DATABASE_URL is set (a new database per
 * server, dropped afterwards; unreachable means the test fails, never skips), else PGlite.
 */
async function freshDatabase(dataDir?: string): Promise<{ database: Database; url?: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    // In memory, start from the run's migrated template (database-template.ts) when there is one.
    const pgliteTemplate = dataDir ? undefined : process.env.MOWERLINE_TEST_PGLITE_TEMPLATE;
    const database = await openDatabase({ dataDir: dataDir ?? 'memory://', pgliteTemplate });
    return { database, drop: async () => {} };
  }
  const name = `mowerline_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const template = process.env.MOWERLINE_TEST_PG_TEMPLATE;
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // Dropping the database terminates its connections on purpose; that is not an error here.
  const database = await openDatabase({ url: url.toString(), dataDir: 'unused', onError: () => {} });
  return {
    database,
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function startServer(
  opts: { config?: Partial<Config>; dataDir?: string; database?: Database; keepDatabase?: boolean } = {},
): Promise<TestServer> {
  const { database, url: databaseUrl, drop } = opts.database ? { database: opts.database, drop: async () => {} } : await freshDatabase(opts.dataDir);
  const config = loadConfig(
    { NODE_ENV: 'test', LOG_LEVEL: 'warn' },
    {
      jwtSecret: 'test-secret-that-is-long-enough-for-hs256',
      dataDir: opts.dataDir ?? '/nonexistent',
      adminPassword: ADMIN.password,
      consoleDir: undefined,
      loginRateLimitPerMinute: 1000,
      // Every suite's requests come from 127.0.0.1; the suites of the form limits set the real ones.
      formLimitPerIp: 1000,
      // The embedded MQTT broker on a free port (the machine's Mosquitto holds 1883).
      mqttPort: 0,
      mqttTlsPort: 0,
      // Suites sign in with a password alone unless they opt in to the second-factor policy.
      require2faRoles: [],
      passwordHashCost: TEST_PASSWORD_HASH_COST,
      ...opts.config,
    },
  );
  await ensureInitialAdmin(database.db, config, () => {});
  const built = await buildApp(config, database, { logger: false });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;

  const api: TestServer['api'] = async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.lang) headers['accept-language'] = o.lang;
    let body: string | undefined;
    if (o.rawBody !== undefined) body = o.rawBody;
    else if (o.body !== undefined) body = JSON.stringify(o.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(url + path, { method, headers, body });
    const text = await res.text();
    const parsed: unknown = text ? JSON.parse(text) : undefined;
    // Every answer an integration suite sees is checked against the contract, so a suite that
    // meets an undocumented status or body fails with the endpoint named.
    const problem = answerProblem(method, path, res.status, parsed);
    if (problem) throw new Error(`answer not as documented: ${problem}`);
    return { status: res.status, headers: res.headers, body: parsed } as ApiResponse<never>;
  };

  const login: TestServer['login'] = async (username = ADMIN.username, password = ADMIN.password) => {
    const res = await api<{ access_token: string }>('POST', '/api/admin/user/login', { body: { username, password } });
    if (res.body?.code !== 0) throw new Error(`login ${username} failed: ${JSON.stringify(res.body)}`);
    return res.body.data.access_token;
  };

  return {
    ...built,
    url,
    config,
    database,
    databaseUrl,
    api,
    login,
    async close() {
      await built.app.close();
      if (!opts.keepDatabase) {
        await database.close();
        await drop();
      }
    },
  };
}
