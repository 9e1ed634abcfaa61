import type { Map as MapLibreMap, StyleSpecification } from 'maplibre-gl';
import type { MapBase } from '@mowerline/contract';

/** Offline base map colours (world-atlas countries), from Arco's neutral palette for each theme. */
export const palette = {
  light: { water: '#E8F3FF', land: '#FFFFFF', border: '#C9CDD4' },
  dark: { water: '#17171A', land: '#2E2E30', border: '#4C4C4F' },
} as const;

/** The two outlines: world-atlas 1:110m (small, drawn first and at world zoom) and 1:50m (loaded when zoomed in). */
export type Detail = '110m' | '50m';

/**
 * From this zoom on the 1:50m outline replaces the 1:110m one. Below it the coarse outline looks the
 * same and draws far fewer vertices per frame, which is what panning costs on a software renderer.
 */
export const DETAIL_ZOOM = 4;

const empty = (): GeoJSON.FeatureCollection => ({ type: 'FeatureCollection', features: [] });

/**
 * Fewer vertices per tile, for the same look: outlines simplified to 2 px (1 px for 1:50m) instead of
 * maplibre's 0.375, and tiles that reach 16 px (of 512) into their neighbours instead of 128, which
 * matters because the world is drawn two or three times side by side at world zoom. In headless
 * Chromium's software WebGL this took panning with no devices from about 13 to about 30 fps.
 */
const tiling = { '110m': { tolerance: 2, buffer: 16 }, '50m': { tolerance: 1, buffer: 16 } } as const;

/**
 * The offline style: a background for the sea, countries as fill + borders at two levels of detail.
 * No glyphs or sprites are needed (labels are HTML markers), so the map works with no internet at all.
 * The fill has no antialiasing pass: the border lines are drawn over its edges anyway.
 * The 1:50m layers start at DETAIL_ZOOM; until their data has arrived the 1:110m layers draw at every zoom.
 */
export function baseStyle(theme: 'light' | 'dark'): StyleSpecification {
  const c = palette[theme];
  return {
    version: 8,
    sources: {
      'countries-110m': { type: 'geojson', data: empty(), ...tiling['110m'] },
      'countries-50m': { type: 'geojson', data: empty(), ...tiling['50m'] },
    },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': c.water } },
      { id: 'land-110m', type: 'fill', source: 'countries-110m', paint: { 'fill-color': c.land, 'fill-antialias': false } },
      { id: 'borders-110m', type: 'line', source: 'countries-110m', paint: { 'line-color': c.border, 'line-width': 0.6 } },
      { id: 'land-50m', type: 'fill', source: 'countries-50m', minzoom: DETAIL_ZOOM, paint: { 'fill-color': c.land, 'fill-antialias': false } },
      { id: 'borders-50m', type: 'line', source: 'countries-50m', minzoom: DETAIL_ZOOM, paint: { 'line-color': c.border, 'line-width': 0.6 } },
    ],
  };
}

/**
 * The offline style with the configured XYZ raster tiles drawn over it: where a tile loads it shows
 * streets and place names, where it does not (offline, a slow server) the offline base still does.
 */
export function withOnlineTiles(style: StyleSpecification, base: MapBase): StyleSpecification {
  if (!base.tileUrl) return style;
  return {
    ...style,
    sources: { ...style.sources, 'online-base': { type: 'raster', tiles: [base.tileUrl], tileSize: 256, maxzoom: 19, attribution: base.attribution } },
    layers: [...style.layers, { id: 'online-base', type: 'raster', source: 'online-base' }],
  };
}

/** Once the 1:50m outline is in, the 1:110m one only draws below DETAIL_ZOOM. */
export function detailLoaded(map: MapLibreMap): void {
  map.setLayerZoomRange('land-110m', 0, DETAIL_ZOOM);
  map.setLayerZoomRange('borders-110m', 0, DETAIL_ZOOM);
}

export function applyPalette(map: MapLibreMap, theme: 'light' | 'dark'): void {
  const c = palette[theme];
  map.setPaintProperty('water', 'background-color', c.water);
  for (const detail of ['110m', '50m'] satisfies Detail[]) {
    map.setPaintProperty(`land-${detail}`, 'fill-color', c.land);
    map.setPaintProperty(`borders-${detail}`, 'line-color', c.border);
  }
}
