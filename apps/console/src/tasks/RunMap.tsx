import { useEffect, useMemo, useRef, useState } from 'react';
import { LngLatBounds, Map as MapLibreMap, NavigationControl, setWorkerUrl, type GeoJSONSource } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import world110Url from 'world-atlas/countries-110m.json?url';
import type { Topology } from 'topojson-specification';
import type { Zone } from '@mowerline/contract';
import { applyPalette, baseStyle } from '../device-map/map-style.ts';
import { worldGeoJson } from '../device-map/world-geojson.ts';
import { collection, runGeoJson } from './run-geo.ts';

setWorkerUrl(workerUrl);

export const RUN_MAP_COLORS = { path: '#165DFF', zone: '#00B42A', otherZone: '#86909C', start: '#00B42A', end: '#F53F3F' } as const;

interface Props {
  /** Encoded polyline (precision 6), '' while the run has none. */
  path: string;
  zones: Zone[];
  /** The zones this run covered (empty = the whole garden). */
  runZones: string[];
  theme: 'light' | 'dark';
  ariaLabel: string;
}

/**
 * A run's path over its garden on the device map's offline base (no tiles, no internet). Its own
 * chunk: maplibre is most of the drawer's JavaScript.
 */
export default function RunMap({ path, zones, runZones, theme, ariaLabel }: Props) {
  const container = useRef<HTMLDivElement>(null);
  const map = useRef<MapLibreMap | null>(null);
  const [ready, setReady] = useState(false);
  const data = useMemo(() => runGeoJson(path, zones, runZones), [path, zones, runZones]);

  useEffect(() => {
    const m = new MapLibreMap({
      container: container.current!,
      style: baseStyle(theme),
      center: [0, 0],
      zoom: 1,
      maxZoom: 22,
      attributionControl: false,
      fadeDuration: 0,
      dragRotate: false,
      pitchWithRotate: false,
    });
    map.current = m;
    m.addControl(new NavigationControl({ showCompass: false }), 'top-right');
    m.touchZoomRotate.disableRotation();
    m.on('load', () => {
      m.addSource('run-zones', { type: 'geojson', data: collection([]) });
      m.addSource('run-path', { type: 'geojson', data: collection([]) });
      m.addSource('run-ends', { type: 'geojson', data: collection([]) });
      const zoneColor = ['case', ['get', 'inRun'], RUN_MAP_COLORS.zone, RUN_MAP_COLORS.otherZone];
      m.addLayer({ id: 'run-zones-fill', type: 'fill', source: 'run-zones', paint: { 'fill-color': zoneColor as never, 'fill-opacity': 0.25 } });
      m.addLayer({ id: 'run-zones-line', type: 'line', source: 'run-zones', paint: { 'line-color': zoneColor as never, 'line-width': 1.5 } });
      m.addLayer({ id: 'run-path', type: 'line', source: 'run-path', layout: { 'line-join': 'round', 'line-cap': 'round' }, paint: { 'line-color': RUN_MAP_COLORS.path, 'line-width': 2, 'line-opacity': 0.9 } });
      m.addLayer({
        id: 'run-ends',
        type: 'circle',
        source: 'run-ends',
        paint: { 'circle-radius': 6, 'circle-color': ['match', ['get', 'end'], 'start', RUN_MAP_COLORS.start, RUN_MAP_COLORS.end] as never, 'circle-stroke-color': '#fff', 'circle-stroke-width': 2 },
      });
      setReady(true);
    });
    let cancelled = false;
    void fetch(world110Url)
      .then((r) => r.json() as Promise<Topology>)
      .then((topology) => {
        if (cancelled || !map.current) return;
        const apply = () => (m.getSource('countries-110m') as GeoJSONSource | undefined)?.setData(worldGeoJson(topology));
        if (m.loaded()) apply();
        else m.once('load', apply);
      })
      .catch(() => {});
    return () => {
      cancelled = true;
      m.remove();
      map.current = null;
    };
    // Created once; theme and data are applied below without rebuilding the map.
  }, []);

  useEffect(() => {
    const m = map.current;
    if (!m || !ready) return;
    applyPalette(m, theme);
    (m.getSource('run-zones') as GeoJSONSource).setData(data.zones);
    (m.getSource('run-path') as GeoJSONSource).setData(data.line);
    (m.getSource('run-ends') as GeoJSONSource).setData(data.ends);
    if (data.bounds.length > 0) {
      const bounds = data.bounds.reduce((b, p) => b.extend(p), new LngLatBounds(data.bounds[0], data.bounds[0]));
      m.fitBounds(bounds, { padding: 32, maxZoom: 20, duration: 0 });
    }
  }, [ready, data, theme]);

  return <div ref={container} className="task-map" role="img" aria-label={ariaLabel} data-testid="task-run-map" data-ready={ready} data-path-points={data.points} data-zones={data.zones.features.length} />;
}
