import type { FastifyInstance } from 'fastify';
import { deviceMapApi } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { serve } from '../http/endpoints.ts';
import { devicePositions } from './devices-map.service.ts';

/** The device map's data (`/device/device-map`): compact positions, full or as a delta. */
export async function deviceMapRoutes(app: FastifyInstance, ctx: AppContext) {
  serve(app, ctx, deviceMapApi, { positions: ({ query }) => devicePositions(ctx.db, query) });
}
