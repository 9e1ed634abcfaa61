import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createWebSocketStream } from 'ws';
import {
  brokerAclBodySchema,
  brokerAuthBodySchema,
  brokerAuthResultSchema,
  brokerSuperuserBodySchema,
  deviceMayPublish,
  deviceMaySubscribe,
  SN_PATTERN,
} from '@mowerline/contract';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { devices } from '../devices/devices.sql.ts';
import { sameString } from './device-credentials.ts';

const allow = (superuser = false) => ({ result: 'allow' as const, is_superuser: superuser });
const deny = { result: 'deny' as const, is_superuser: false };
const brokerResponses = { 200: brokerAuthResultSchema, 403: brokerAuthResultSchema };

/** The server's own account on an external broker (the user/password of MQTT_URL), if any. */
function serverAccount(mqttUrl: string | undefined): { username: string; password: string } | undefined {
  if (!mqttUrl) return undefined;
  const u = new URL(mqttUrl);
  return u.username ? { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password) } : undefined;
}

export async function gatewayRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const server = serverAccount(ctx.config.mqttUrl);
  const isServer = (username: string) => !!server && username === server.username;
  const isEnabled = async (sn: string) =>
    SN_PATTERN.test(sn) && (await ctx.db.select({ enabled: devices.enabled }).from(devices).where(eq(devices.sn, sn)).limit(1))[0]?.enabled === true;

  // MQTT over WebSocket into the embedded broker, on the HTTP port (docs/device-protocol.md).
  if (ctx.gateway.mode === 'embedded' && ctx.config.mqttWs) {
    r.get('/mqtt', { websocket: true, schema: { hide: true } }, (socket, request) => {
      ctx.gateway.handleWebSocket(createWebSocketStream(socket), request.raw);
    });
  }

  // Device authentication for an external broker: 200 allow, 403 deny (both brokers' conventions).
  r.post('/api/device-auth/mqtt', { schema: { tags: ['device-auth'], body: brokerAuthBodySchema, response: brokerResponses } }, async (request, reply) => {
    const { username, password, clientid } = request.body;
    if (isServer(username)) return sameString(password, server!.password) ? allow(true) : reply.status(403).send(deny);
    const result = await ctx.gateway.checkDevice(username, password, clientid || username);
    return result === 'ok' ? allow() : reply.status(403).send(deny);
  });

  r.post('/api/device-auth/mqtt/acl', { schema: { tags: ['device-auth'], body: brokerAclBodySchema, response: brokerResponses } }, async (request, reply) => {
    const { username, clientid, topic, acc, action } = request.body;
    if (isServer(username)) return allow(true);
    if (clientid && clientid !== username) return reply.status(403).send(deny);
    const publish = acc === 2 || acc === 3 || action === 'publish' || action === 'all';
    const read = acc === 1 || acc === 3 || acc === 4 || action === 'subscribe' || action === 'all';
    if (!publish && !read) return reply.status(403).send(deny);
    const allowed = (!publish || deviceMayPublish(username, topic)) && (!read || deviceMaySubscribe(username, topic));
    // A disabled SN loses its rights too, once the broker's ACL cache expires.
    return allowed && (await isEnabled(username)) ? allow() : reply.status(403).send(deny);
  });

  r.post('/api/device-auth/mqtt/superuser', { schema: { tags: ['device-auth'], body: brokerSuperuserBodySchema, response: brokerResponses } }, async (request, reply) =>
    isServer(request.body.username) ? allow(true) : reply.status(403).send(deny),
  );
}
