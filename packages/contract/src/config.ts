import { z } from 'zod';

/** A region's API host the console may talk to. */
export const serverEntrySchema = z.object({ name: z.string(), host: z.string() });
export type ServerEntry = z.infer<typeof serverEntrySchema>;

/**
 * The map's online base (MAP_TILE_URL / MAP_STYLE_URL / MAP_ATTRIBUTION): an XYZ raster template or
 * a MapLibre style URL, with its attribution. Both empty: the offline base only (the default).
 */
export const mapBaseSchema = z.object({ tileUrl: z.string(), styleUrl: z.string(), attribution: z.string() });
export type MapBase = z.infer<typeof mapBaseSchema>;

/** Runtime configuration the server hands the console: `GET /api/config` (no sign-in). */
export const runtimeConfigSchema = z.object({
  servers: z.array(serverEntrySchema),
  version: z.string(),
  map: mapBaseSchema,
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  uptime: z.number(),
  database: z.object({ kind: z.enum(['pglite', 'postgres']), ok: z.boolean() }),
});
export type Health = z.infer<typeof healthSchema>;
