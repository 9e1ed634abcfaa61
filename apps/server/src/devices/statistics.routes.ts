import type { FastifyInstance } from 'fastify';
import { statisticsApi } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { serve } from '../http/endpoints.ts';
import { onlineStats } from './statistics.service.ts';

export async function deviceStatisticsRoutes(app: FastifyInstance, ctx: AppContext) {
  serve(app, ctx, statisticsApi, { online: ({ query }) => onlineStats(ctx.db, query) });
}
