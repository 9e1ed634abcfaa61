import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  appLatestQuerySchema,
  appLatestSchema,
  appVersionCreateBodySchema,
  appVersionListQuerySchema,
  appVersionSchema,
  appVersionUpdateBodySchema,
  envelopeSchema,
  idParam,
  pageSchema,
} from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { localeOf, ok } from '../http/envelope.ts';
import { principal } from '../http/auth.ts';
import { createAppVersion, latestFor, listAppVersions, updateAppVersion } from './app-version.service.ts';

const secured = { tags: ['app-version'], security: [{ bearer: [] }] };

/** App releases (/product/app-change-log) and the app's own "should I update?" call. */
export async function appVersionRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/admin/product/app-version',
    { preHandler: ctx.guard('appVersion'), schema: { ...secured, querystring: appVersionListQuerySchema, response: { 200: envelopeSchema(pageSchema(appVersionSchema)) } } },
    async (request) => ok(request, await listAppVersions(ctx.db, request.query)),
  );

  r.post(
    '/api/admin/product/app-version',
    { preHandler: ctx.guard('appVersionWrite'), schema: { ...secured, body: appVersionCreateBodySchema, response: { 200: envelopeSchema(appVersionSchema) } } },
    async (request) => {
      const created = await createAppVersion(ctx.db, request.body, principal(request));
      await ctx.audit(request, {
        action: 'app-version.create',
        result: 'success',
        targetType: 'app-version',
        targetId: created.id,
        targetName: `${created.platform} ${created.version} (${created.build})`,
        detail: { forceUpdate: created.forceUpdate, minSupportedVersion: created.minSupportedVersion },
      });
      return ok(request, created);
    },
  );

  r.put(
    '/api/admin/product/app-version/:id',
    {
      preHandler: ctx.guard('appVersionWrite'),
      schema: { ...secured, params: z.object({ id: idParam }).strict(), body: appVersionUpdateBodySchema, response: { 200: envelopeSchema(appVersionSchema) } },
    },
    async (request) => {
      const { before, after } = await updateAppVersion(ctx.db, request.params.id, request.body);
      await ctx.audit(request, {
        action: 'app-version.update',
        result: 'success',
        targetType: 'app-version',
        targetId: after.id,
        targetName: `${after.platform} ${after.version} (${after.build})`,
        detail: { from: { forceUpdate: before.forceUpdate, minSupportedVersion: before.minSupportedVersion }, to: request.body },
      });
      return ok(request, after);
    },
  );

  // Public: the app asks before anyone signs in.
  r.get(
    '/api/app/v1/app-version/latest',
    { schema: { tags: ['app'], querystring: appLatestQuerySchema, response: { 200: envelopeSchema(appLatestSchema) } } },
    async (request) => ok(request, await latestFor(ctx.db, request.query.platform, request.query.version, localeOf(request))),
  );
}
