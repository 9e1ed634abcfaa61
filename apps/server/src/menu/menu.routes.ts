import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeSchema, menuForRole, menuSchema } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { principal } from '../http/auth.ts';
import { ok } from '../http/envelope.ts';

/** POST /api/user/menu (spec §7): the shared route table, cut down to what the caller's role may open. */
export async function menuRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/user/menu',
    {
      preHandler: ctx.guard(),
      schema: { tags: ['menu'], security: [{ bearer: [] }], summary: 'The menu tree for my role', response: { 200: envelopeSchema(menuSchema) } },
    },
    async (request) => ok(request, menuForRole(principal(request).role)),
  );
}
