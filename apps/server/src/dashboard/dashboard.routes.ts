import type { FastifyInstance } from 'fastify';
import { dashboardStatisticsApi } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { principal } from '../http/auth.ts';
import { serve } from '../http/endpoints.ts';
import { activeAppUsersToday } from '../end-users/active-users.service.ts';
import { attentionFor, type AttentionSource } from './attention.ts';

/** The workplace's attention list (its sources are composed in app.ts) and its app-user card. */
export function dashboardRoutes(app: FastifyInstance, ctx: AppContext, sources: readonly AttentionSource[]) {
  serve(app, ctx, dashboardStatisticsApi, {
    notify: async ({ request }) => ({ list: await attentionFor(ctx.db, principal(request), sources) }),
    activeAppUsers: () => activeAppUsersToday(ctx.db),
  });
}
