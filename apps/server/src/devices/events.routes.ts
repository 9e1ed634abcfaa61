import type { FastifyInstance } from 'fastify';
import { deviceEventsApi } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { principal } from '../http/auth.ts';
import { serve, type HandlerInput } from '../http/endpoints.ts';
import { localeOf } from '../http/envelope.ts';
import { advanceEvents, eventCounts, listEvents } from './events.service.ts';

/** Exception events (`/device/device-exception-event`): list, per-code counts, acknowledge, clear. */
export async function eventRoutes(app: FastifyInstance, ctx: AppContext) {
  /** Acknowledges or clears; a call that changed nothing is logged as a failure. */
  const advance =
    (step: 'ack' | 'clear') =>
    async ({ body, request, audit }: Pick<HandlerInput<typeof deviceEventsApi.ack>, 'body' | 'request' | 'audit'>) => {
      const { ids, comment } = body;
      const result = await advanceEvents(ctx.db, step, ids, principal(request), comment);
      audit({
        result: result.updated.length > 0 ? 'success' : 'failure',
        targetType: 'deviceEvent',
        targetId: result.updated.slice(0, 20).join(','),
        detail: { updated: result.updated, skipped: result.skipped, comment: comment ?? '' },
      });
      return result;
    };

  serve(app, ctx, deviceEventsApi, {
    list: ({ query, request }) => listEvents(ctx.db, query, localeOf(request)),
    counts: ({ query, request }) => eventCounts(ctx.db, query, localeOf(request)),
    ack: advance('ack'),
    clear: advance('clear'),
  });
}
