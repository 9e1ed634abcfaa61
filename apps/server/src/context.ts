import type { FastifyBaseLogger, onRequestAsyncHookHandler } from 'fastify';
import type { RateLimitOptions } from '@fastify/rate-limit';
import type { EndpointDef } from '@mowerline/contract';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { Mailer } from './email/mailer.ts';
import type { Gateway } from './gateway/gateway.ts';
import type { Guard, PrincipalReader } from './http/auth.ts';
import type { Metrics } from './metrics/metrics.ts';
import type { Audit } from './system-log/audit.ts';

/** What every feature's routes are given: built once in `buildApp`. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  mailer: Mailer;
  audit: Audit;
  /** `guard()` = signed in; `guard('staff')` = signed in with a role allowed on that resource. */
  guard: Guard;
  /** The staff caller of a request (the bearer token's live session), as the guard reads it. */
  principalOf: PrincipalReader;
  /** Authenticates a mobile-app user (app endpoints); absent until the app API is built. */
  appGuard?: onRequestAsyncHookHandler;
  /** The per-source rate limits endpoints name (`rateLimit` in the contract). */
  rateLimits: Record<NonNullable<EndpointDef['rateLimit']>, RateLimitOptions>;
  /** Admits an external broker's device-auth call (the shared secret); 404 while none is configured. */
  brokerGuard: onRequestAsyncHookHandler;
  /** The device gateway: sendCommand, publish/listen on device topics, kick (docs/device-protocol.md). */
  gateway: Gateway;
  /** This instance's Prometheus registry and the counters features feed (`countWebhookDelivery`). */
  metrics: Metrics;
  /** The server's log, for background work that runs outside a request. */
  log: FastifyBaseLogger;
}
