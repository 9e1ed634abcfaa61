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
