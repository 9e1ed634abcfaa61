import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { devicePositionsQuerySchema, devicePositionsSchema, envelopeSchema } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { ok } from '../http/envelope.ts';
import { devicePositions } from './devices-map.service.ts';

/** The device map's data (`/device/device-map`): compact positions, full or as a delta. */
export async function deviceMapRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/admin/device/positions',
    {
      preHandler: ctx.guard('devices'),
      schema: {
        tags: ['devices'],
        security: [{ bearer: [] }],
        summary: 'Positions and states of every positioned device (parallel arrays); with `since`, only those changed since',
        querystring: devicePositionsQuerySchema,
        response: { 200: envelopeSchema(devicePositionsSchema) },
      },
    },
    async (request) => ok(request, await devicePositions(ctx.db, request.query)),
  );
}
