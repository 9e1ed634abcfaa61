import type { FastifyInstance } from 'fastify';
import { menuApi, menuForRole } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { principal } from '../http/auth.ts';
import { serve } from '../http/endpoints.ts';

/** POST /api/user/menu: the shared route table, cut down to what the caller's role may open. */
export async function menuRoutes(app: FastifyInstance, ctx: AppContext) {
  serve(app, ctx, menuApi, { menu: async ({ request }) => menuForRole(principal(request).role) });
}
