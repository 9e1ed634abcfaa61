import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeSchema, pageSchema, systemLogQuerySchema, systemLogSchema } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { ok } from '../http/envelope.ts';
import { listSystemLogs } from './system-log.service.ts';

export async function systemLogRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/admin/system/log',
    {
      preHandler: ctx.guard('systemLog'),
      schema: {
        tags: ['system-log'],
        security: [{ bearer: [] }],
        summary: 'The audit log: who did what to which target, from where, with what result',
        querystring: systemLogQuerySchema,
        response: { 200: envelopeSchema(pageSchema(systemLogSchema)) },
      },
    },
    async (request) => ok(request, await listSystemLogs(ctx.db, request.query)),
  );
}
