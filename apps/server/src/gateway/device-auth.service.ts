import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { RateLimitOptions } from '@fastify/rate-limit';
import type { z } from 'zod';
import { DEVICE_AUTH_SECRET_HEADER, deviceMayPublish, deviceMaySubscribe, SN_PATTERN, type brokerAclBodySchema, type brokerAuthBodySchema } from '@mowerline/contract';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { devices } from '../devices/devices.sql.ts';
import { AppError } from '../http/envelope.ts';
import { sameString } from './device-credentials.ts';


export type BrokerAnswer = { status: 200 | 403; body: { result: 'allow' | 'deny'; is_superuser: boolean } };

const allow = (superuser = false): BrokerAnswer => ({ status: 200, body: { result: 'allow', is_superuser: superuser } });
const deny: BrokerAnswer = { status: 403, body: { result: 'deny', is_superuser: false } };

/**
 * The device-auth endpoints an external broker calls exist only when DEVICE_AUTH_SECRET is set
 * (else 404), and every call must carry it: without it they would tell anyone which SNs are
 * registered. A caller without it gets 401 and no other answer.
 */
export function createBrokerGuard(config: AppContext['config']): onRequestAsyncHookHandler {
  return async (request, reply) => {
    if (!config.deviceAuthSecret) throw new AppError('NOT_FOUND');
    if (!hasBrokerSecret(config, request)) return reply.status(401).send({ result: 'deny', is_superuser: false });
  };
}

/**
 * DEVICE_AUTH_RATE_LIMIT per minute and IP for callers without the secret; the broker itself is
 * never limited (a reconnect storm of the fleet is thousands of calls).
 */
export function deviceAuthRateLimit(config: AppContext['config']): RateLimitOptions {
  return {
    max: config.deviceAuthRateLimitPerMinute,
    timeWindow: 60_000,
    allowList: (request) => hasBrokerSecret(config, request),
    errorResponseBuilder: () => new AppError('RATE_LIMITED'),
  };
}

/** Does the request carry the shared secret (compared in constant time)? */
export function hasBrokerSecret(config: AppContext['config'], request: Pick<FastifyRequest, 'headers'>): boolean {
  const given = request.headers[DEVICE_AUTH_SECRET_HEADER];
  return !!config.deviceAuthSecret && typeof given === 'string' && sameString(given, config.deviceAuthSecret);
}

/** The server's own account on an external broker (the user/password of MQTT_URL), if any. */
function serverAccount(mqttUrl: string | undefined): { username: string; password: string } | undefined {
  if (!mqttUrl) return undefined;
  const u = new URL(mqttUrl);
  return u.username ? { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password) } : undefined;
}

/**
 * Broker-facing authentication and ACL. An unknown SN and a known SN with a wrong secret get the
 * same answer, and cost the same work (DeviceCredentials verifies a dummy hash for unknown SNs).
 */
export function createDeviceAuthService(ctx: Pick<AppContext, 'config' | 'db' | 'gateway'>) {
  const server = serverAccount(ctx.config.mqttUrl);
  const isServer = (username: string) => !!server && username === server.username;
  const isEnabled = async (sn: string) =>
    SN_PATTERN.test(sn) && (await ctx.db.select({ enabled: devices.enabled }).from(devices).where(eq(devices.sn, sn)).limit(1))[0]?.enabled === true;

  return {
    /** POST /api/device-auth/mqtt: may this client connect? */
    async authenticate(body: z.infer<typeof brokerAuthBodySchema>): Promise<BrokerAnswer> {
      const { username, password, clientid } = body;
      if (isServer(username)) return sameString(password, server!.password) ? allow(true) : deny;
      const result = await ctx.gateway.checkDevice(username, password, clientid || username);
      return result === 'ok' ? allow() : deny;
    },

    /** POST /api/device-auth/mqtt/acl: may this client publish or subscribe here? */
    async authorize(body: z.infer<typeof brokerAclBodySchema>): Promise<BrokerAnswer> {
      const { username, clientid, topic, acc, action } = body;
      if (isServer(username)) return allow(true);
      if (clientid && clientid !== username) return deny;
      const publish = acc === 2 || acc === 3 || action === 'publish' || action === 'all';
      const read = acc === 1 || acc === 3 || acc === 4 || action === 'subscribe' || action === 'all';
      if (!publish && !read) return deny;
      const allowed = (!publish || deviceMayPublish(username, topic)) && (!read || deviceMaySubscribe(username, topic));
      // A disabled SN loses its rights too, once the broker's ACL cache expires.
      return allowed && (await isEnabled(username)) ? allow() : deny;
    },

    /** POST /api/device-auth/mqtt/superuser */
    superuser(username: string): BrokerAnswer {
      return isServer(username) ? allow(true) : deny;
    },
  };
}
