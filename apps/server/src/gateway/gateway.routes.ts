import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createWebSocketStream } from 'ws';
import { brokerAclBodySchema, brokerAuthBodySchema, brokerAuthResultSchema, brokerSuperuserBodySchema, envelopeSchema, gatewayStatsSchema } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { AppError, ok } from '../http/envelope.ts';
import { createDeviceAuthService, DEVICE_AUTH_SECRET_HEADER, hasBrokerSecret } from './device-auth.service.ts';

const brokerResponses = { 200: brokerAuthResultSchema, 401: brokerAuthResultSchema, 403: brokerAuthResultSchema };
const brokerHeaders = z.object({ [DEVICE_AUTH_SECRET_HEADER]: z.string().max(256).optional() });

export async function gatewayRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = createDeviceAuthService(ctx);

  // MQTT over WebSocket into the embedded broker, on the HTTP port (docs/device-protocol.md).
  if (ctx.gateway.mode === 'embedded' && ctx.config.mqttWs) {
    r.get('/mqtt', { websocket: true, schema: { hide: true } }, (socket, request) => {
      ctx.gateway.handleWebSocket(createWebSocketStream(socket), request.raw);
    });
  }

  // Device authentication for an external broker: 200 allow, 403 deny (both brokers' conventions).
  // Only when DEVICE_AUTH_SECRET is set (else 404), and only for callers that send it: others get
  // 401 and, beyond DEVICE_AUTH_RATE_LIMIT per minute and IP, 429. The broker itself, with the
  // secret, is never limited (a reconnect storm of the fleet is thousands of calls).
  if (ctx.config.deviceAuthSecret) {
    const brokerRoute = <B extends z.ZodType>(body: B) => ({
      schema: { tags: ['device-auth'], headers: brokerHeaders, body, response: brokerResponses },
      config: {
        rateLimit: {
          max: ctx.config.deviceAuthRateLimitPerMinute,
          timeWindow: 60_000,
          allowList: (request: FastifyRequest) => hasBrokerSecret(ctx.config, request),
          errorResponseBuilder: () => new AppError('RATE_LIMITED'),
        },
      },
      // After the rate limit (onRequest), before the body is validated: no secret, no other answer.
      preValidation: async (request: FastifyRequest, reply: FastifyReply) => {
        if (!hasBrokerSecret(ctx.config, request)) return reply.status(401).send({ result: 'deny', is_superuser: false });
      },
    });

    r.post('/api/device-auth/mqtt', brokerRoute(brokerAuthBodySchema), async (request, reply) => {
      const answer = await auth.authenticate(request.body);
      return reply.status(answer.status).send(answer.body);
    });

    r.post('/api/device-auth/mqtt/acl', brokerRoute(brokerAclBodySchema), async (request, reply) => {
      const answer = await auth.authorize(request.body);
      return reply.status(answer.status).send(answer.body);
    });

    r.post('/api/device-auth/mqtt/superuser', brokerRoute(brokerSuperuserBodySchema), async (request, reply) => {
      const answer = auth.superuser(request.body.username);
      return reply.status(answer.status).send(answer.body);
    });
  }

  r.get(
    '/api/admin/device/gateway-stats',
    { preHandler: ctx.guard('deviceCommand'), schema: { tags: ['devices'], security: [{ bearer: [] }], response: { 200: envelopeSchema(gatewayStatsSchema) } } },
    async (request) => {
      const endpoints = ctx.gateway.endpoints();
      return ok(request, {
        nodeId: ctx.gateway.nodeId,
        mode: ctx.gateway.mode,
        ports: { tcp: endpoints.tcpPort, tls: endpoints.tlsPort, websocketPath: endpoints.websocketPath },
        ...ctx.gateway.stats(),
      });
    },
  );
}
