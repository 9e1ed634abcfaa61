import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { meetsPasswordBaseline, PASSWORD_HASH_COST, type PasswordHashCost } from './auth/password.ts';
import { DEFAULT_TICKET_ATTACHMENT_MAX_MB, roles, serverEntrySchema, type MapBase, type Role, type ServerEntry } from '@mowerline/contract';

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
  MQTT_HOST: optionalString,
  MQTT_WS: z.enum(['true', 'false']).default('true'),
  MQTT_TLS_PORT: int(8883),
  MQTT_TLS_CERT: optionalString,
  MQTT_TLS_KEY: optionalString,
  MQTT_SHARE_GROUP: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).default('mowerline'),
  MQTT_CLIENT_ID: z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/).optional().catch(undefined),
  MQTT_SESSION_EXPIRY_SECONDS: z.coerce.number().int().min(1).max(604_800).default(300),
  DEVICE_ACK_AFTER_WRITE: z.enum(['true', 'false']).default('true'),
  DEVICE_TELEMETRY_RATE: z.coerce.number().positive().max(10_000).default(5),
  DEVICE_TELEMETRY_BURST: z.coerce.number().int().min(1).max(100_000).default(20),
  DEVICE_EVENTS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(30),
  TELEMETRY_FLUSH_MS: z.coerce.number().int().min(10).max(60_000).default(250),
  TELEMETRY_BATCH_MAX: z.coerce.number().int().min(1).max(5000).default(500),
  TELEMETRY_WRITERS: z.coerce.number().int().min(1).max(16).default(4),
  TELEMETRY_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  EVENT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
  EVENT_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  DEVICE_STALE_SECONDS: z.coerce.number().int().min(30).max(86_400).default(180),
  DEVICE_CLOCK_SKEW_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  // Too short is an error, not a silent "off": the operator meant to turn the endpoints on.
  DEVICE_AUTH_SECRET: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().min(16, 'DEVICE_AUTH_SECRET: at least 16 characters').optional()),
  DEVICE_AUTH_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(20),
  FLEET_SIZE: int(50),
  SMTP_URL: optionalString,
  MAIL_FROM: z.string().default('Mowerline <no-reply@mowerline.local>'),
  PUBLIC_URL: optionalString,
  JWT_SECRET: optionalString,
  ADMIN_USERNAME: z.string().default('admin'),
  ADMIN_PASSWORD: optionalString,
  CORS_ORIGINS: z.string().default(''),
  SERVER_LIST: optionalString,
  MAP_TILE_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url({ protocol: /^https?$/ }).optional()),
  MAP_STYLE_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url({ protocol: /^https?$/ }).optional()),
  MAP_ATTRIBUTION: z.string().default(''),
  LOG_LEVEL: z.string().default('info'),
  LOG_PRETTY: z.enum(['auto', 'true', 'false']).default('auto'),
  LOG_SLOW_MS: z.coerce.number().int().min(0).max(3_600_000).default(1000),
  TRUST_PROXY: z.string().default('false'),
  SESSION_TTL_HOURS: int(12),
  REMEMBER_TTL_DAYS: int(30),
  SESSION_CACHE_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  LOGIN_RATE_LIMIT: int(30),
  CAPTCHA_AFTER_FAILURES: int(3),
  LOCKOUT_AFTER_FAILURES: int(8),
  LOCKOUT_MINUTES: int(15),
  REQUIRE_2FA_ROLES: z.string().default('admin'),
  WEBAUTHN_RP_ID: optionalString,
  WEBAUTHN_ORIGINS: optionalString,
  STEP_UP_MINUTES: z.coerce.number().positive().max(1440).default(10),
  CAPTCHA_WORK: z.coerce.number().int().min(1).max(10_000_000).default(5000),
  FORM_LIMIT_PER_IP: z.coerce.number().int().min(1).max(100_000).default(10),
  FORM_LIMIT_PER_EMAIL: z.coerce.number().int().min(1).max(100_000).default(3),
  APP_MAIL_LIMIT_15_MIN: z.coerce.number().int().min(1).max(100_000).default(3),
  APP_MAIL_LIMIT_PER_DAY: z.coerce.number().int().min(1).max(100_000).default(10),
  RESET_LINK_TTL_MINUTES: int(30),
  FIRMWARE_MAX_MB: z.coerce.number().int().min(1).max(10_240).default(512),
  FIRMWARE_SIGNING_KEY: optionalString,
  OTA_TICK_MS: z.coerce.number().int().min(200).max(60_000).default(2000),
  OTA_URL_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  // Remote shell: minutes may be fractional (tests use a few seconds).
  SHELL_IDLE_MINUTES: z.coerce.number().positive().max(1440).default(15),
  SHELL_MAX_MINUTES: z.coerce.number().positive().max(1440).default(120),
  SHELL_MAX_PER_DEVICE: z.coerce.number().int().min(1).max(100).default(2),
  SHELL_MAX_PER_USER: z.coerce.number().int().min(1).max(100).default(5),
  SHELL_WINDOW_KB: z.coerce.number().int().min(16).max(16_384).default(256),
  SHELL_RECORD_MAX_MB: z.coerce.number().positive().max(1024).default(16),
  SHELL_RECORD_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  USER_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  APP_ACCESS_TTL_MINUTES: z.coerce.number().int().min(1).max(1440).default(60),
  APP_REFRESH_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  TICKET_ATTACHMENT_MAX_MB: z.coerce.number().int().min(1).max(64).default(DEFAULT_TICKET_ATTACHMENT_MAX_MB),
  INBOUND_SMTP_PORT: int(0),
  INBOUND_SMTP_HOST: optionalString,
  INBOUND_MAIL_DOMAIN: optionalString,
  // A typo must not silently turn the check off: an unusable value is an error.
  INBOUND_TRUSTED_RELAY: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().regex(/^[A-Za-z0-9][A-Za-z0-9.-]{0,252}$/, 'INBOUND_TRUSTED_RELAY: an authserv-id such as mx.example.com').optional()),
  ORPHAN_FILE_MIN_AGE_MINUTES: z.coerce.number().int().min(0).max(10_080).default(60),
  METRICS_PORT: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(65_535).optional()),
  // Too short is an error, not a silent "off": the operator meant to turn the endpoint on.
  METRICS_TOKEN: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().min(16, 'METRICS_TOKEN: at least 16 characters').optional()),
  API_KEY_RATE_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(600),
  WEBHOOK_ALLOW_HTTP: z.enum(['true', 'false']).default('false'),
  WEBHOOK_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
});

/** Names of every setting, so the README's table can be checked against them. */
export const settingNames = Object.keys(envSchema.shape);

export interface Config {
  /** Calls per minute one API key may make, counted for all nodes together. */
  apiKeyRateLimit: number;
  /** Webhook URLs may be plain `http` (tests, on-premise). */
  webhookAllowHttp: boolean;
  /** Webhook URLs may resolve to loopback, private, link-local and metadata addresses (tests, on-premise). */
  webhookAllowPrivate: boolean;
  /**
   * The webhook sender's clock (retry times, the three-day disable rule). Not an environment
   * setting: tests move it forward instead of waiting days.
   */
  webhookClock: () => Date;
  production: boolean;
  /** Every answer also written by zod and compared with the compiled writer (http/serializer.ts): all but production. */
  checkResponses: boolean;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  mqttPort: number;
  /** MQTT_PORT was chosen by the operator: a taken port is then an error, not a reason to move. */
  mqttPortExplicit: boolean;
  mqttUrl?: string;
  /** Interface of the embedded broker's TCP/TLS listeners (default: HOST). */
  mqttHost: string;
  /** MQTT over WebSocket at `/mqtt` on the HTTP server (embedded broker only). */
  mqttWs: boolean;
  mqttTlsPort: number;
  mqttTlsCert?: string;
  mqttTlsKey?: string;
  /** Shared-subscription group the server nodes join on an external broker. */
  mqttShareGroup: string;
  /** This node's client id on an external broker; stable across restarts when `deviceAckAfterWrite` (the broker keeps its session). */
  mqttClientId?: string;
  /** How long an external broker keeps the session (unacknowledged and queued messages) of a node that went away without a clean stop. */
  mqttSessionExpirySeconds: number;
  /** Acknowledge a device's QoS 1 message only once it is written (docs/device-protocol.md, "How the platform ingests"). */
  deviceAckAfterWrite: boolean;
  /** Per-device ingest limits, unless the device's model sets its own (docs/device-protocol.md, "Ingest limits"). */
  deviceLimits: { telemetryRate: number; telemetryBurst: number; eventsPerHour: number };
  /**
   * How long a device must stay above ten times its limits to be disconnected and flagged. Not an
   * environment setting: a minute is the policy; tests shorten it.
   */
  deviceAbuseWindowMs: number;
  /** argon2id work factors for passwords: the baseline, never set from the environment; test runs may lower them. */
  passwordHashCost: PasswordHashCost;
  telemetryFlushMs: number;
  telemetryBatchMax: number;
  /** Telemetry writers side by side (PostgreSQL; PGlite has one connection, so one writer). */
  telemetryWriters: number;
  telemetryRetentionDays: number;
  /** Domain events every subscriber has handled are deleted after this (docs/events.md). */
  eventRetentionDays: number;
  /** How long a node holds a claimed event delivery: a node that died gives it up after this. */
  eventLeaseMs: number;
  deviceStaleSeconds: number;
  /** How far a device's `ts` may run ahead of the server's receive time before it is not believed (docs/device-protocol.md). */
  deviceClockSkewMs: number;
  /**
   * Shared secret an external broker sends to the device-auth endpoints (`/api/device-auth/…`);
   * without it those endpoints do not exist (404).
   */
  deviceAuthSecret?: string;
  /** Device-auth requests without the right secret per IP per minute (beyond: 429). */
  deviceAuthRateLimitPerMinute: number;
  /** Simulated mowers `npm start` runs for the demo; 0 turns the demo fleet off. */
  fleetSize: number;
  smtpUrl?: string;
  mailFrom: string;
  publicUrl: string;
  jwtSecret: string;
  adminUsername: string;
  adminPassword?: string;
  corsOrigins: string[];
  servers: ServerEntry[];
  /** The map's online base, if any (the console draws the offline base under it either way). */
  map: MapBase;
  logLevel: string;
  /** Human-readable log lines (pino-pretty) instead of JSON: by default on a terminal outside production. */
  logPretty: boolean;
  /** A request taking at least this long is logged; other successful requests are not (0 logs every request). */
  logSlowMs: number;
  trustProxy: boolean;
  sessionTtlMs: number;
  rememberTtlMs: number;
  /** How long a node may answer a live session's check from memory (0: every request asks the database). */
  sessionCacheMs: number;
  loginRateLimitPerMinute: number;
  captchaAfterFailures: number;
  lockoutAfterFailures: number;
  lockoutMs: number;
  /** Roles that must have a second factor (REQUIRE_2FA_ROLES); empty turns the requirement off. */
  require2faRoles: Role[];
  /** How long a second-factor confirmation (or a sign-in) lets step-up actions through. */
  stepUpMs: number;
  /** Passkeys: the relying party id (a domain) and the console origins the browser may sign for. */
  webauthnRpId: string;
  webauthnOrigins: string[];
  /** Proof of work of the first captcha level: the highest counter (PBKDF2 keys to derive); doubles per level. */
  captchaWork: number;
  /** Register / forgot-password requests per source address per hour (each form counted apart, the app's too). */
  formLimitPerIp: number;
  /** Register / forgot-password requests per target e-mail or account per day. */
  formLimitPerEmail: number;
  /** The app's forms that mail a code (register, resend-code, forgot-password), together, per target e-mail per 15 minutes… */
  appMailLimitPer15Min: number;
  /** …and per day. */
  appMailLimitPerDay: number;
  resetLinkTtlMs: number;
  /** Remote shell limits (docs/device-protocol.md, "Remote shell"). */
  shellIdleMs: number;
  shellMaxMs: number;
  shellMaxPerDevice: number;
  shellMaxPerUser: number;
  /** Output bytes in flight per session (the device's credit window): bounds the relay's memory. */
  shellWindowBytes: number;
  /** Recorded bytes per session; beyond it the output is still shown but no longer recorded. */
  shellRecordMaxBytes: number;
  shellRecordRetentionDays: number;
  /** User-log rows (what app users did) older than this many days are deleted. */
  userLogRetentionDays: number;
  /** Lifetime of an app access token; the refresh token renews it. */
  appAccessTtlMs: number;
  /** Lifetime of an app session's refresh token (renewed on each use). */
  appRefreshTtlMs: number;
  /** Largest firmware image or voice pack accepted, in MiB. */
  firmwareMaxMb: number;
  /** Ed25519 private key (PKCS#8 PEM) that signs OTA artifacts; else generated once into DATA_DIR. */
  firmwareSigningKey?: string;
  /** How often a running OTA campaign is advanced (dispatch, timeouts, thresholds). */
  otaTickMs: number;
  /** Lifetime of a signed artifact download URL. */
  otaUrlTtlSeconds: number;
  /** Largest ticket attachment, in MiB. */
  ticketAttachmentMaxMb: number;
  /** Port of the inbound SMTP listener that threads mailed replies into tickets; 0 = off (tests pass 0 with `inboundSmtpEnabled`). */
  inboundSmtpPort: number;
  /** Run the inbound listener even on port 0 (an ephemeral port: tests). */
  inboundSmtpEnabled: boolean;
  inboundSmtpHost: string;
  /** Domain of the per-ticket reply addresses (`reply+<id>.<token>@domain`). */
  inboundMailDomain: string;
  /**
   * The authserv-id of the relay whose `Authentication-Results` header is believed; when set, a
   * mailed answer needs SPF or DKIM `pass` (and no DMARC `fail`) in that header. Undefined = unchecked.
   */
  inboundTrustedRelay?: string;
  /** A file under DATA_DIR/files that no row names is removed once it is this old (an upload in progress is younger). */
  orphanFileMinAgeMs: number;
  /** Port of the Prometheus listener (`GET /metrics` on HOST); undefined = none (tests pass 0: an ephemeral port). */
  metricsPort?: number;
  /** Bearer token `GET /metrics` requires; without a metrics port it is served on the main port only when this is set. */
  metricsToken?: string;
  /** Where the built console is served from; absent in API-only tests. */
  consoleDir?: string;
  version: string;
}

const defaultServers = (publicUrl: string): ServerEntry[] => [
  { name: 'Asia test', host: publicUrl },
  { name: 'Asia production', host: publicUrl },
  { name: 'Europe production', host: publicUrl },
];

/** `admin,user` → roles; an unknown name is a start-up error, not a silently weaker policy. */
function parseRoles(list: string): Role[] {
  const names = list.split(',').map((s) => s.trim()).filter(Boolean);
  for (const name of names) if (!(roles as readonly string[]).includes(name)) throw new Error(`REQUIRE_2FA_ROLES: unknown role ${name}`);
  return names as Role[];
}

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
  const config: Config = {
    production: e.NODE_ENV === 'production',
    checkResponses: e.NODE_ENV !== 'production',
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    mqttPort: e.MQTT_PORT,
    mqttPortExplicit: env.MQTT_PORT !== undefined && env.MQTT_PORT !== '',
    mqttUrl: e.MQTT_URL,
    mqttHost: e.MQTT_HOST ?? e.HOST,
    mqttWs: e.MQTT_WS === 'true',
    mqttTlsPort: e.MQTT_TLS_PORT,
    mqttTlsCert: e.MQTT_TLS_CERT,
    mqttTlsKey: e.MQTT_TLS_KEY,
    mqttShareGroup: e.MQTT_SHARE_GROUP,
    mqttClientId: e.MQTT_CLIENT_ID,
    mqttSessionExpirySeconds: e.MQTT_SESSION_EXPIRY_SECONDS,
    deviceAckAfterWrite: e.DEVICE_ACK_AFTER_WRITE === 'true',
    deviceLimits: { telemetryRate: e.DEVICE_TELEMETRY_RATE, telemetryBurst: e.DEVICE_TELEMETRY_BURST, eventsPerHour: e.DEVICE_EVENTS_PER_HOUR },
    deviceAbuseWindowMs: 60_000,
    passwordHashCost: PASSWORD_HASH_COST,
    apiKeyRateLimit: e.API_KEY_RATE_LIMIT,
    webhookAllowHttp: e.WEBHOOK_ALLOW_HTTP === 'true',
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE === 'true',
    webhookClock: () => new Date(),
    telemetryFlushMs: e.TELEMETRY_FLUSH_MS,
    telemetryBatchMax: e.TELEMETRY_BATCH_MAX,
    telemetryWriters: e.TELEMETRY_WRITERS,
    telemetryRetentionDays: e.TELEMETRY_RETENTION_DAYS,
    eventRetentionDays: e.EVENT_RETENTION_DAYS,
    eventLeaseMs: e.EVENT_LEASE_SECONDS * 1000,
    deviceStaleSeconds: e.DEVICE_STALE_SECONDS,
    deviceClockSkewMs: e.DEVICE_CLOCK_SKEW_SECONDS * 1000,
    deviceAuthSecret: e.DEVICE_AUTH_SECRET,
    deviceAuthRateLimitPerMinute: e.DEVICE_AUTH_RATE_LIMIT,
    fleetSize: e.FLEET_SIZE,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    publicUrl,
    jwtSecret: overrides.jwtSecret ?? jwtSecretFor(dataDir, e.JWT_SECRET),
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    corsOrigins: e.CORS_ORIGINS.split(',').map((s) => s.trim()).filter(Boolean),
    servers,
    map: { tileUrl: e.MAP_TILE_URL ?? '', styleUrl: e.MAP_STYLE_URL ?? '', attribution: e.MAP_ATTRIBUTION },
    logLevel: e.LOG_LEVEL,
    logPretty: e.LOG_PRETTY === 'auto' ? Boolean(process.stdout.isTTY) && e.NODE_ENV !== 'production' : e.LOG_PRETTY === 'true',
    logSlowMs: e.LOG_SLOW_MS,
    trustProxy: e.TRUST_PROXY === 'true',
    sessionTtlMs: e.SESSION_TTL_HOURS * 3_600_000,
    rememberTtlMs: e.REMEMBER_TTL_DAYS * 86_400_000,
    sessionCacheMs: e.SESSION_CACHE_MS,
    loginRateLimitPerMinute: e.LOGIN_RATE_LIMIT,
    captchaAfterFailures: e.CAPTCHA_AFTER_FAILURES,
    lockoutAfterFailures: e.LOCKOUT_AFTER_FAILURES,
    lockoutMs: e.LOCKOUT_MINUTES * 60_000,
    require2faRoles: parseRoles(e.REQUIRE_2FA_ROLES),
    stepUpMs: Math.round(e.STEP_UP_MINUTES * 60_000),
    webauthnRpId: e.WEBAUTHN_RP_ID ?? new URL(publicUrl).hostname,
    webauthnOrigins: (e.WEBAUTHN_ORIGINS ?? new URL(publicUrl).origin).split(',').map((s) => s.trim()).filter(Boolean),
    captchaWork: e.CAPTCHA_WORK,
    formLimitPerIp: e.FORM_LIMIT_PER_IP,
    formLimitPerEmail: e.FORM_LIMIT_PER_EMAIL,
    appMailLimitPer15Min: e.APP_MAIL_LIMIT_15_MIN,
    appMailLimitPerDay: e.APP_MAIL_LIMIT_PER_DAY,
    resetLinkTtlMs: e.RESET_LINK_TTL_MINUTES * 60_000,
    firmwareMaxMb: e.FIRMWARE_MAX_MB,
    firmwareSigningKey: e.FIRMWARE_SIGNING_KEY,
    otaTickMs: e.OTA_TICK_MS,
    otaUrlTtlSeconds: e.OTA_URL_TTL_SECONDS,
    shellIdleMs: Math.round(e.SHELL_IDLE_MINUTES * 60_000),
    shellMaxMs: Math.round(e.SHELL_MAX_MINUTES * 60_000),
    shellMaxPerDevice: e.SHELL_MAX_PER_DEVICE,
    shellMaxPerUser: e.SHELL_MAX_PER_USER,
    shellWindowBytes: e.SHELL_WINDOW_KB * 1024,
    shellRecordMaxBytes: Math.round(e.SHELL_RECORD_MAX_MB * 1024 * 1024),
    shellRecordRetentionDays: e.SHELL_RECORD_RETENTION_DAYS,
    userLogRetentionDays: e.USER_LOG_RETENTION_DAYS,
    appAccessTtlMs: e.APP_ACCESS_TTL_MINUTES * 60_000,
    appRefreshTtlMs: e.APP_REFRESH_TTL_DAYS * 86_400_000,
    ticketAttachmentMaxMb: e.TICKET_ATTACHMENT_MAX_MB,
    inboundSmtpPort: e.INBOUND_SMTP_PORT,
    inboundSmtpEnabled: e.INBOUND_SMTP_PORT > 0,
    inboundSmtpHost: e.INBOUND_SMTP_HOST ?? e.HOST,
    inboundMailDomain: e.INBOUND_MAIL_DOMAIN ?? new URL(publicUrl).hostname,
    inboundTrustedRelay: e.INBOUND_TRUSTED_RELAY?.toLowerCase(),
    orphanFileMinAgeMs: e.ORPHAN_FILE_MIN_AGE_MINUTES * 60_000,
    metricsPort: e.METRICS_PORT,
    metricsToken: e.METRICS_TOKEN,
    consoleDir: path.resolve(import.meta.dirname, '../../console/dist'),
    version: env.npm_package_version ?? '0.1.0',
    ...overrides,
  };
  // Cheaper password hashing only where passwords are throw-away: a test run.
  if (e.NODE_ENV !== 'test' && !meetsPasswordBaseline(config.passwordHashCost)) {
    throw new Error('passwordHashCost below the argon2id baseline is allowed in tests only (NODE_ENV=test)');
  }
  return config;
}
