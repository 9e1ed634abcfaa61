import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Position } from 'geojson';
import type { Topology } from 'topojson-specification';
import { unwrapRing, worldGeoJson } from './world-geojson.ts';

const maxStep = (ring: Position[]) => ring.slice(1).reduce((m, p, i) => Math.max(m, Math.abs(p[0]! - ring[i]![0]!)), 0);

describe('world base layer', () => {
  it('unwraps a ring crossing the antimeridian instead of jumping 360°', () => {
    const fiji: Position[] = [[179, -16], [-179.5, -16], [-179.5, -17], [179, -17], [179, -16]];
    const out = unwrapRing(fiji);
    expect(out).toEqual([[179, -16], [180.5, -16], [180.5, -17], [179, -17], [179, -16]]);
    expect(maxStep(out)).toBeLessThan(180);
  });

  it('closes a ring that goes around the globe along the nearer pole', () => {
    const polar: Position[] = [[-180, -80], [0, -70], [180, -80], [-180, -80]];
    const out = unwrapRing(polar);
    expect(maxStep(out)).toBeLessThanOrEqual(180);
    expect(out.at(-1)).toEqual(out[0]);
    expect(out.some((p) => p[1] === -90)).toBe(true);
  });

  it('leaves no stripe in the real world-atlas countries', () => {
    const file = createRequire(import.meta.url).resolve('world-atlas/countries-50m.json');
    const world = worldGeoJson(JSON.parse(readFileSync(file, 'utf8')) as Topology);
    expect(world.features.length).toBeGreaterThan(200);
    for (const f of world.features) {
      const polygons = f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;
      for (const rings of polygons) for (const ring of rings) expect(maxStep(ring), f.properties?.name).toBeLessThanOrEqual(180);
    }
    expect(world.features.find((f) => f.properties?.name === 'Russia')).toBeDefined();
  });
});
