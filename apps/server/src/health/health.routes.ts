import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeSchema, healthSchema, runtimeConfigSchema } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { ok } from '../http/envelope.ts';

const startedAt = Date.now();

export async function healthRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/health', { schema: { tags: ['system'], response: { 200: envelopeSchema(healthSchema), 503: envelopeSchema(healthSchema) } } }, async (request, reply) => {
    const dbOk = await ctx.database.ping();
    if (!dbOk) reply.status(503);
    return ok(request, {
      status: dbOk ? ('ok' as const) : ('degraded' as const),
      version: ctx.config.version,
      uptime: Math.round((Date.now() - startedAt) / 1000),
      database: { kind: ctx.database.kind, ok: dbOk },
    });
  });

  // The console reads its region list and the server's version here before anyone signs in.
  r.get('/api/config', { schema: { tags: ['system'], response: { 200: envelopeSchema(runtimeConfigSchema) } } }, async (request) =>
    ok(request, { servers: ctx.config.servers, version: ctx.config.version }),
  );
}
