import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeSchema, onlineStatsQuerySchema, onlineStatsSchema } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { ok } from '../http/envelope.ts';
import { onlineStats } from './statistics.service.ts';

export async function deviceStatisticsRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/admin/statistics/online',
    {
      preHandler: ctx.guard('devices'),
      schema: { tags: ['statistics'], security: [{ bearer: [] }], summary: 'Devices online now and the online count over time (sampled every minute)', querystring: onlineStatsQuerySchema, response: { 200: envelopeSchema(onlineStatsSchema) } },
    },
    async (request) => ok(request, await onlineStats(ctx.db, request.query)),
  );
}
