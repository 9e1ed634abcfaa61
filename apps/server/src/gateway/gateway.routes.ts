import type { FastifyInstance } from 'fastify';
import { createWebSocketStream } from 'ws';
import { deviceAuthApi, mqttSocketApi } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { serve } from '../http/endpoints.ts';
import { createDeviceAuthService } from './device-auth.service.ts';

/** The broker-facing HTTP endpoints, and MQTT over WebSocket into the embedded broker. */
export function gatewayRoutes(app: FastifyInstance, ctx: AppContext) {
  if (ctx.gateway.mode === 'embedded' && ctx.config.mqttWs) {
    serve(app, ctx, mqttSocketApi, {
      socket: (socket, request) => ctx.gateway.handleWebSocket(createWebSocketStream(socket), request.raw),
    });
  }

  // Admitted by ctx.brokerGuard (the shared secret); the answers are the broker's allow/deny bodies.
  const auth = createDeviceAuthService(ctx);
  serve(app, ctx, deviceAuthApi, {
    authenticate: async ({ body, reply }) => {
      const answer = await auth.authenticate(body);
      return reply.status(answer.status).send(answer.body);
    },
    authorize: async ({ body, reply }) => {
      const answer = await auth.authorize(body);
      return reply.status(answer.status).send(answer.body);
    },
    superuser: async ({ body, reply }) => {
      const answer = auth.superuser(body.username);
      return reply.status(answer.status).send(answer.body);
    },
  });
}
