import type { Map as MapLibreMap, StyleSpecification } from 'maplibre-gl';

/** Offline base map colours (world-atlas countries), from Arco's neutral palette for each theme. */
export const palette = {
  light: { water: '#E8F3FF', land: '#FFFFFF', border: '#C9CDD4' },
  dark: { water: '#17171A', land: '#2E2E30', border: '#4C4C4F' },
} as const;

/**
 * The offline style: a background for the sea, countries as fill + borders. No glyphs or sprites
 * are needed (labels are HTML markers), so the map works with no internet at all.
 */
export function baseStyle(theme: 'light' | 'dark'): StyleSpecification {
  const c = palette[theme];
  return {
    version: 8,
    sources: { countries: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } } },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': c.water } },
      { id: 'land', type: 'fill', source: 'countries', paint: { 'fill-color': c.land, 'fill-antialias': true } },
      { id: 'borders', type: 'line', source: 'countries', paint: { 'line-color': c.border, 'line-width': 0.6 } },
    ],
  };
}

export function applyPalette(map: MapLibreMap, theme: 'light' | 'dark'): void {
  const c = palette[theme];
  map.setPaintProperty('water', 'background-color', c.water);
  map.setPaintProperty('land', 'fill-color', c.land);
  map.setPaintProperty('borders', 'line-color', c.border);
}
