import type { FastifyInstance } from 'fastify';
import { appVersionApi } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { localeOf } from '../http/envelope.ts';
import { principal } from '../http/auth.ts';
import { serve } from '../http/endpoints.ts';
import { createAppVersion, latestFor, listAppVersions, updateAppVersion, withdrawAppVersion } from './app-version.service.ts';

/** App releases (/product/app-change-log) and the app's own "should I update?" call. */
export async function appVersionRoutes(app: FastifyInstance, ctx: AppContext) {
  serve(app, ctx, appVersionApi, {
    list: ({ query }) => listAppVersions(ctx.db, query),

    create: async ({ body, request, audit }) => {
      audit({ targetType: 'app-version', targetName: `${body.platform} ${body.version} (${body.build})` });
      const created = await createAppVersion(ctx.db, body, principal(request));
      audit({ targetId: created.id, detail: { forceUpdate: created.forceUpdate, minSupportedVersion: created.minSupportedVersion } });
      return created;
    },

    update: async ({ params, body, audit }) => {
      audit({ targetType: 'app-version', targetId: params.id });
      const { before, after } = await updateAppVersion(ctx.db, params.id, body);
      audit({
        targetName: `${after.platform} ${after.version} (${after.build})`,
        detail: { from: { forceUpdate: before.forceUpdate, minSupportedVersion: before.minSupportedVersion }, to: body },
      });
      return after;
    },

    withdraw: async ({ params, request, audit }) => {
      audit({ targetType: 'app-version', targetId: params.id });
      const after = await withdrawAppVersion(ctx.db, params.id, principal(request));
      audit({ targetName: `${after.platform} ${after.version} (${after.build})` });
      return after;
    },

    latest: ({ query, request }) => latestFor(ctx.db, query.platform, query.version, localeOf(request)),
  });
}
