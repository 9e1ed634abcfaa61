import { decodePolyline, type Zone } from '@mowerline/contract';

export type Features = GeoJSON.FeatureCollection;
export const collection = (features: GeoJSON.Feature[]): Features => ({ type: 'FeatureCollection', features });

/** GeoJSON of the garden's zones, the decoded path and its two ends ([lng, lat] order). */
export function runGeoJson(path: string, zones: Zone[], runZones: string[]) {
  const points = decodePolyline(path).map(([lat, lng]) => [lng, lat] as [number, number]);
  const zoneFeatures = zones
    .filter((z) => z.polygon.length >= 3)
    .map<GeoJSON.Feature>((z) => {
      const ring = z.polygon.map((p) => [p.lng, p.lat]);
      ring.push(ring[0]!);
      return { type: 'Feature', properties: { id: z.id, name: z.name, inRun: runZones.length === 0 || runZones.includes(z.id) }, geometry: { type: 'Polygon', coordinates: [ring] } };
    });
  const line: GeoJSON.Feature[] = points.length >= 2 ? [{ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: points } }] : [];
  const ends: GeoJSON.Feature[] =
    points.length > 0
      ? [
          { type: 'Feature', properties: { end: 'start' }, geometry: { type: 'Point', coordinates: points[0]! } },
          { type: 'Feature', properties: { end: 'end' }, geometry: { type: 'Point', coordinates: points.at(-1)! } },
        ]
      : [];
  const all = [...points, ...zones.flatMap((z) => z.polygon.map((p) => [p.lng, p.lat] as [number, number]))];
  return { zones: collection(zoneFeatures), line: collection(line), ends: collection(ends), points: points.length, bounds: all };
}
