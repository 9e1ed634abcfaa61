import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { emailLogQuerySchema, emailLogSchema, envelopeSchema, pageSchema } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { ok } from '../http/envelope.ts';
import { listEmailLogs } from './email-log.service.ts';

export async function emailRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/admin/system/email-log',
    {
      preHandler: ctx.guard('emailLog'),
      schema: {
        tags: ['email-log'],
        security: [{ bearer: [] }],
        summary: 'Every mail, sent or not: recipient, subject, template, status and the delivery error',
        querystring: emailLogQuerySchema,
        response: { 200: envelopeSchema(pageSchema(emailLogSchema)) },
      },
    },
    async (request) => ok(request, await listEmailLogs(ctx.db, request.query)),
  );
}
