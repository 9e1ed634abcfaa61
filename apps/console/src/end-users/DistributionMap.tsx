import { useEffect, useRef, useState } from 'react';
import { Map as MapLibreMap, NavigationControl, setWorkerUrl, type GeoJSONSource, type MapLayerMouseEvent } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import world110Url from 'world-atlas/countries-110m.json?url';
import type { FeatureCollection, MultiPolygon, Polygon } from 'geojson';
import type { Topology } from 'topojson-specification';
import { applyPalette, baseStyle, palette } from '../device-map/map-style.ts';
import { worldGeoJson } from '../device-map/world-geojson.ts';
import { RAMP } from './ramp.ts';

setWorkerUrl(workerUrl);


export interface MapCountry {
  /** ISO 3166-1 numeric, the world-atlas feature id. */
  numeric: string;
  country: string;
  label: string;
  count: number;
}

interface Props {
  countries: MapCountry[];
  selected: string | undefined;
  theme: 'light' | 'dark';
  ariaLabel: string;
  onSelect(country: string): void;
}

type World = FeatureCollection<Polygon | MultiPolygon>;

/** Fill by count: no users → plain land; 1 … max → along the ramp. */
function fillColor(max: number, land: string) {
  const count = ['coalesce', ['get', 'count'], 0];
  const scale = max > 1 ? ['interpolate', ['linear'], count, 1, RAMP[0], max, RAMP[RAMP.length - 1]] : RAMP[RAMP.length - 1];
  return ['case', ['>', count, 0], scale, land];
}

/**
 * A world choropleth of users per country on the device map's offline base (world-atlas 1:110m).
 * Its own chunk: maplibre is most of the page's JavaScript. A click on a country selects it.
 */
export default function DistributionMap({ countries, selected, theme, ariaLabel, onSelect }: Props) {
  const container = useRef<HTMLDivElement>(null);
  const map = useRef<MapLibreMap | null>(null);
  const [world, setWorld] = useState<World>();
  const [ready, setReady] = useState(false);
  const [hover, setHover] = useState<{ x: number; y: number; text: string }>();
  const latest = useRef({ countries, onSelect });
  useEffect(() => {
    latest.current = { countries, onSelect };
  });

  useEffect(() => {
    const m = new MapLibreMap({
      container: container.current!,
      style: baseStyle(theme),
      center: [15, 25],
      zoom: 0.8,
      minZoom: 0.5,
      maxZoom: 6,
      attributionControl: false,
      fadeDuration: 0,
      dragRotate: false,
      pitchWithRotate: false,
      renderWorldCopies: false,
    });
    map.current = m;
    m.addControl(new NavigationControl({ showCompass: false }), 'top-right');
    m.touchZoomRotate.disableRotation();
    m.on('load', () => {
      m.addLayer({ id: 'users-fill', type: 'fill', source: 'countries-110m', paint: { 'fill-color': palette[theme].land, 'fill-antialias': false } }, 'borders-110m');
      m.addLayer({ id: 'users-selected', type: 'line', source: 'countries-110m', filter: ['==', ['get', 'selected'], true], paint: { 'line-color': '#165DFF', 'line-width': 2 } });
      setReady(true);
    });
    const find = (e: MapLayerMouseEvent) => {
      const numeric = e.features?.[0]?.properties?.numeric as string | undefined;
      return numeric ? latest.current.countries.find((c) => c.numeric === numeric) : undefined;
    };
    m.on('mousemove', 'users-fill', (e) => {
      const hit = find(e);
      m.getCanvas().style.cursor = hit ? 'pointer' : '';
      const name = (e.features?.[0]?.properties?.name as string | undefined) ?? '';
      setHover(hit ? { x: e.point.x, y: e.point.y, text: `${hit.label}: ${hit.count.toLocaleString()}` } : name ? { x: e.point.x, y: e.point.y, text: `${name}: 0` } : undefined);
    });
    m.on('mouseleave', 'users-fill', () => {
      m.getCanvas().style.cursor = '';
      setHover(undefined);
    });
    m.on('click', 'users-fill', (e) => {
      const hit = find(e);
      if (hit) latest.current.onSelect(hit.country);
    });
    let cancelled = false;
    void fetch(world110Url)
      .then((r) => r.json() as Promise<Topology>)
      .then((topology) => {
        if (!cancelled) setWorld(worldGeoJson(topology));
      });
    return () => {
      cancelled = true;
      m.remove();
      map.current = null;
    };
    // Created once; theme and data are applied below without rebuilding the map.
  }, []);

  useEffect(() => {
    const m = map.current;
    if (!m || !ready || !world) return;
    const counts = new Map(countries.map((c) => [c.numeric, c]));
    const selectedNumeric = countries.find((c) => c.country === selected)?.numeric;
    const data: World = {
      ...world,
      features: world.features.map((f) => {
        const numeric = String(f.id ?? '');
        return { ...f, properties: { ...f.properties, numeric, count: counts.get(numeric)?.count ?? 0, selected: !!numeric && numeric === selectedNumeric } };
      }),
    };
    (m.getSource('countries-110m') as GeoJSONSource).setData(data);
    const max = Math.max(0, ...countries.map((c) => c.count));
    applyPalette(m, theme);
    m.setPaintProperty('users-fill', 'fill-color', fillColor(max, palette[theme].land) as never);
  }, [ready, world, countries, selected, theme]);

  return (
    <>
      <div ref={container} className="user-dist-map" role="region" aria-label={ariaLabel} data-testid="user-dist-map" data-ready={ready && !!world} />
      {hover && (
        <div className="user-dist-tooltip" style={{ left: hover.x + 12, top: hover.y + 12 }}>
          {hover.text}
        </div>
      )}
    </>
  );
}
