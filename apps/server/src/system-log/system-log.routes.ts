import type { FastifyInstance } from 'fastify';
import { systemLogApi } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { serve } from '../http/endpoints.ts';
import { listSystemLogs } from './system-log.service.ts';

export async function systemLogRoutes(app: FastifyInstance, ctx: AppContext) {
  serve(app, ctx, systemLogApi, { list: ({ query }) => listSystemLogs(ctx.db, query) });
}
