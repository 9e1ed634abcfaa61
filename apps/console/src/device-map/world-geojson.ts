import type { Feature, FeatureCollection, MultiPolygon, Polygon, Position } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

/**
 * A ring whose longitudes jump across ±180° (Russia, Fiji, Antarctica in world-atlas) draws as a
 * stripe across the whole map. Unwrapping keeps each step under 180° by carrying ±360°; the map's
 * tiler (geojson-vt) then clips and wraps the part beyond ±180° into the next world copy. A ring
 * that goes once around the globe (Antarctica) is closed along the nearer pole.
 */
export function unwrapRing(ring: Position[]): Position[] {
  if (ring.length === 0) return ring;
  const out: Position[] = [[ring[0]![0]!, ring[0]![1]!]];
  let offset = 0;
  for (let i = 1; i < ring.length; i++) {
    const [rawLng, lat] = ring[i]!;
    let lng = rawLng! + offset;
    const previous = out[i - 1]![0]!;
    if (lng - previous > 180) {
      offset -= 360;
      lng -= 360;
    } else if (lng - previous < -180) {
      offset += 360;
      lng += 360;
    }
    out.push([lng, lat!]);
  }
  if (offset !== 0) {
    const meanLat = out.reduce((sum, p) => sum + p[1]!, 0) / out.length;
    const pole = meanLat < 0 ? -90 : 90;
    const first = out[0]!;
    const last = out[out.length - 1]!;
    // Along the pole in 90° steps, so no edge of the closed ring spans more than half the globe.
    const step = last[0]! > first[0]! ? -90 : 90;
    for (let lng = last[0]!; step < 0 ? lng > first[0]! : lng < first[0]!; lng += step) out.push([lng, pole]);
    out.push([first[0]!, pole], [first[0]!, first[1]!]);
  }
  return out;
}

function crosses(ring: Position[]): boolean {
  for (let i = 1; i < ring.length; i++) if (Math.abs(ring[i]![0]! - ring[i - 1]![0]!) > 180) return true;
  return false;
}

function fixPolygon(rings: Position[][]): Position[][] {
  return rings.map((ring) => (crosses(ring) ? unwrapRing(ring) : ring));
}

/** Country polygons from a world-atlas topology, safe to draw across the antimeridian. */
export function worldGeoJson(topology: Topology, object = 'countries'): FeatureCollection<Polygon | MultiPolygon> {
  const collection = feature(topology, topology.objects[object] as GeometryCollection) as FeatureCollection<Polygon | MultiPolygon>;
  const features = collection.features
    .filter((f): f is Feature<Polygon | MultiPolygon> => !!f.geometry)
    .map((f) => {
      const g = f.geometry;
      const geometry: Polygon | MultiPolygon =
        g.type === 'Polygon' ? { type: 'Polygon', coordinates: fixPolygon(g.coordinates) } : { type: 'MultiPolygon', coordinates: g.coordinates.map(fixPolygon) };
      return { type: 'Feature' as const, id: f.id, properties: { name: (f.properties as { name?: string } | null)?.name ?? '' }, geometry };
    });
  return { type: 'FeatureCollection', features };
}
