import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  envelopeSchema,
  eventActionBodySchema,
  eventActionResultSchema,
  eventCountSchema,
  eventCountsQuerySchema,
  eventListQuerySchema,
  eventPageSchema,
} from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { principal } from '../http/auth.ts';
import { localeOf, ok } from '../http/envelope.ts';
import { advanceEvents, eventCounts, listEvents } from './events.service.ts';

const tags = ['device events'];
const security = [{ bearer: [] }];

/** Exception events (`/device/device-exception-event`): list, per-code counts, acknowledge, clear. */
export async function eventRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = ctx.guard('deviceEvents');

  r.get('/api/admin/device/event', { preHandler: guard, schema: { tags, security, querystring: eventListQuerySchema, response: { 200: envelopeSchema(eventPageSchema) } } }, async (request) =>
    ok(request, await listEvents(ctx.db, request.query, localeOf(request))),
  );

  r.get(
    '/api/admin/device/event/counts',
    { preHandler: guard, schema: { tags, security, querystring: eventCountsQuerySchema, response: { 200: envelopeSchema(z.array(eventCountSchema)) } } },
    async (request) => ok(request, await eventCounts(ctx.db, request.query, localeOf(request))),
  );

  for (const step of ['ack', 'clear'] as const) {
    r.post(
      `/api/admin/device/event/${step}`,
      {
        preHandler: guard,
        schema: {
          tags,
          security,
          summary: step === 'ack' ? 'Acknowledge active events' : 'Clear active or acknowledged events',
          body: eventActionBodySchema,
          response: { 200: envelopeSchema(eventActionResultSchema) },
        },
      },
      async (request) => {
        const { ids, comment } = request.body;
        const result = await advanceEvents(ctx.db, step, ids, principal(request), comment);
        await ctx.audit(request, {
          action: step === 'ack' ? 'device.event.ack' : 'device.event.clear',
          result: result.updated.length > 0 ? 'success' : 'failure',
          targetType: 'deviceEvent',
          targetId: result.updated.slice(0, 20).join(','),
          detail: { updated: result.updated, skipped: result.skipped, comment: comment ?? '' },
        });
        return ok(request, result);
      },
    );
  }
}
