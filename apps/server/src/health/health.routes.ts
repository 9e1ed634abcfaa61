import type { FastifyInstance } from 'fastify';
import { healthApi } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { serve } from '../http/endpoints.ts';
import { AppError } from '../http/envelope.ts';

const startedAt = Date.now();

export async function healthRoutes(app: FastifyInstance, ctx: AppContext) {
  serve(app, ctx, healthApi, {
    health: async () => {
      const dbOk = await ctx.database.ping();
      const report = {
        status: dbOk ? ('ok' as const) : ('degraded' as const),
        version: ctx.config.version,
        uptime: Math.round((Date.now() - startedAt) / 1000),
        database: { kind: ctx.database.kind, ok: dbOk },
      };
      // 503 for the load balancer, with the same report for whoever reads it.
      if (!dbOk) throw new AppError('DATABASE_UNAVAILABLE', {}, report);
      return report;
    },

    // The console reads its region list and the server's version here before anyone signs in.
    config: async () => ({ servers: ctx.config.servers, version: ctx.config.version, map: ctx.config.map }),
  });
}
