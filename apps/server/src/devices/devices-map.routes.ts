import type { FastifyInstance } from 'fastify';
import { deviceMapApi } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { placesIn } from '../end-users/geo.ts';
import { serve } from '../http/endpoints.ts';
import { devicePositions } from './devices-map.service.ts';

/** The device map's data (`/device/device-map`): compact positions, full or as a delta. */
export async function deviceMapRoutes(app: FastifyInstance, ctx: AppContext) {
  serve(app, ctx, deviceMapApi, {
    positions: ({ query }) => devicePositions(ctx.db, query),
    // Place names for the offline base: from the gazetteer the end-user geography already loads.
    places: async ({ query }) => ({
      list: placesIn(query.west, query.south, query.east, query.north, query.limit).map((p) => ({
        name: p.name,
        lat: p.lat,
        lng: p.lng,
        population: p.population,
      })),
    }),
  });
}
