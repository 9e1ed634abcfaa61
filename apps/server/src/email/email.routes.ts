import type { FastifyInstance } from 'fastify';
import { emailLogApi } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { serve } from '../http/endpoints.ts';
import { listEmailLogs } from './email-log.service.ts';

export async function emailRoutes(app: FastifyInstance, ctx: AppContext) {
  serve(app, ctx, emailLogApi, { list: ({ query }) => listEmailLogs(ctx.db, query) });
}
