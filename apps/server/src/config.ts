import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { serverEntrySchema, type ServerEntry } from '@mowerline/contract';

const int = (fallback: number) => z.coerce.number().int().min(0).default(fallback);
const optionalString = z.string().trim().min(1).optional().catch(undefined);

/** Every setting the server reads from the environment; README's configuration table mirrors it. */
const envSchema = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: int(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().optional(),
  DATABASE_URL: optionalString,
  MQTT_PORT: int(1883),
  MQTT_URL: optionalString,
  SMTP_URL: optionalString,
  MAIL_FROM: z.string().default('Mowerline <no-reply@mowerline.local>'),
  PUBLIC_URL: optionalString,
  JWT_SECRET: optionalString,
  ADMIN_USERNAME: z.string().default('admin'),
  ADMIN_PASSWORD: optionalString,
  CORS_ORIGINS: z.string().default(''),
  SERVER_LIST: optionalString,
  LOG_LEVEL: z.string().default('info'),
  TRUST_PROXY: z.string().default('false'),
  SESSION_TTL_HOURS: int(12),
  REMEMBER_TTL_DAYS: int(30),
  LOGIN_RATE_LIMIT: int(30),
  CAPTCHA_AFTER_FAILURES: int(3),
  LOCKOUT_AFTER_FAILURES: int(8),
  LOCKOUT_MINUTES: int(15),
  RESET_LINK_TTL_MINUTES: int(30),
});

export interface Config {
  production: boolean;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  mqttPort: number;
  mqttUrl?: string;
  smtpUrl?: string;
  mailFrom: string;
  publicUrl: string;
  jwtSecret: string;
  adminUsername: string;
  adminPassword?: string;
  corsOrigins: string[];
  servers: ServerEntry[];
  logLevel: string;
  trustProxy: boolean;
  sessionTtlMs: number;
  rememberTtlMs: number;
  loginRateLimitPerMinute: number;
  captchaAfterFailures: number;
  lockoutAfterFailures: number;
  lockoutMs: number;
  resetLinkTtlMs: number;
  /** Where the built console is served from; absent in API-only tests. */
  consoleDir?: string;
  version: string;
}

const defaultServers = (publicUrl: string): ServerEntry[] => [
  { name: 'Asia test', host: publicUrl },
  { name: 'Asia production', host: publicUrl },
  { name: 'Europe production', host: publicUrl },
];

/** The JWT secret: from the environment, else generated once and kept in DATA_DIR. */
function jwtSecretFor(dataDir: string, fromEnv?: string): string {
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const e = envSchema.parse(env);
  // npm runs workspace scripts inside the workspace; relative paths mean the caller's directory.
  const cwd = env.INIT_CWD ?? process.cwd();
  const dataDir = path.resolve(cwd, e.DATA_DIR ?? 'data');
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const servers = e.SERVER_LIST ? z.array(serverEntrySchema).parse(JSON.parse(e.SERVER_LIST)) : defaultServers(publicUrl);
  return {
    production: e.NODE_ENV === 'production',
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    mqttPort: e.MQTT_PORT,
    mqttUrl: e.MQTT_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    publicUrl,
    jwtSecret: overrides.jwtSecret ?? jwtSecretFor(dataDir, e.JWT_SECRET),
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    corsOrigins: e.CORS_ORIGINS.split(',').map((s) => s.trim()).filter(Boolean),
    servers,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY === 'true',
    sessionTtlMs: e.SESSION_TTL_HOURS * 3_600_000,
    rememberTtlMs: e.REMEMBER_TTL_DAYS * 86_400_000,
    loginRateLimitPerMinute: e.LOGIN_RATE_LIMIT,
    captchaAfterFailures: e.CAPTCHA_AFTER_FAILURES,
    lockoutAfterFailures: e.LOCKOUT_AFTER_FAILURES,
    lockoutMs: e.LOCKOUT_MINUTES * 60_000,
    resetLinkTtlMs: e.RESET_LINK_TTL_MINUTES * 60_000,
    consoleDir: path.resolve(import.meta.dirname, '../../console/dist'),
    version: env.npm_package_version ?? '0.1.0',
    ...overrides,
  };
}
