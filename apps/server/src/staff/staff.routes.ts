import type { FastifyInstance } from 'fastify';
import { staffApi } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { serve } from '../http/endpoints.ts';
import { localeOf } from '../http/envelope.ts';
import { createStaff, listRoles, listStaff } from './staff.service.ts';
import { updateStaff } from './staff-update.service.ts';

/** Staff accounts: admins only (the `staff` resource), enforced here whatever the console shows. */
export async function staffRoutes(app: FastifyInstance, ctx: AppContext) {
  serve(app, ctx, staffApi, {
    list: ({ query }) => listStaff(ctx.db, query),
    create: ({ request, body }) => createStaff(ctx, request, body),
    update: ({ request, body }) => updateStaff(ctx, request, body),
    roles: ({ request, query }) => listRoles(ctx.db, localeOf(request), query.keyword),
  });
}
