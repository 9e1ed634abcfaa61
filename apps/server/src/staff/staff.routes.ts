import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  envelopeSchema,
  pageSchema,
  roleInfoSchema,
  roleListQuerySchema,
  staffCreateBodySchema,
  staffListQuerySchema,
  staffUpdateBodySchema,
  staffUserSchema,
} from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { localeOf, ok } from '../http/envelope.ts';
import { createStaff, listRoles, listStaff } from './staff.service.ts';
import { updateStaff } from './staff-update.service.ts';

/** Staff accounts: admins only (the `staff` resource), enforced here whatever the console shows. */
export async function staffRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const common = { tags: ['staff'], security: [{ bearer: [] }] };
  const preHandler = ctx.guard('staff');

  r.get(
    '/api/admin/user',
    { preHandler, schema: { ...common, summary: 'List staff accounts', querystring: staffListQuerySchema, response: { 200: envelopeSchema(pageSchema(staffUserSchema)) } } },
    async (request) => ok(request, await listStaff(ctx.db, request.query)),
  );

  r.post(
    '/api/admin/user',
    { preHandler, schema: { ...common, summary: 'Add a staff account', body: staffCreateBodySchema, response: { 200: envelopeSchema(staffUserSchema) } } },
    async (request) => ok(request, await createStaff(ctx, request, request.body)),
  );

  r.put(
    '/api/admin/user',
    { preHandler, schema: { ...common, summary: 'Edit, approve, disable a staff account or reset its password', body: staffUpdateBodySchema, response: { 200: envelopeSchema(staffUserSchema) } } },
    async (request) => ok(request, await updateStaff(ctx, request, request.body)),
  );

  r.get(
    '/api/admin/user/role',
    { preHandler, schema: { ...common, summary: 'Roles with descriptions and member counts', querystring: roleListQuerySchema, response: { 200: envelopeSchema(z.array(roleInfoSchema)) } } },
    async (request) => ok(request, await listRoles(ctx.db, localeOf(request), request.query.keyword)),
  );
}
