import { useEffect, useRef } from 'react';
import { Map as MapLibreMap, NavigationControl, ScaleControl, setWorkerUrl } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import worldUrl from 'world-atlas/countries-50m.json?url';
import type { GeoJSONSource } from 'maplibre-gl';
import type { Topology } from 'topojson-specification';
import type { DeviceState } from '@mowerline/contract';
import { CLUSTER_MAX_ZOOM, type BBox } from './fleet-index.ts';
import type { FleetWorker } from './fleet-protocol.ts';
import { applyPalette, baseStyle } from './map-style.ts';
import { MarkerLayer } from './markers.ts';
import { worldGeoJson } from './world-geojson.ts';

setWorkerUrl(workerUrl);

interface Props {
  worker: FleetWorker;
  theme: 'light' | 'dark';
  label(state: DeviceState): string;
  onDevice(sn: string): void;
  /** Called with a function that redraws the markers (the page calls it when the fleet changed). */
  onRedraw(redraw: () => void): void;
}

/** The map: offline countries underneath, clusters and devices from the fleet worker on top. */
export function FleetMap({ worker, theme, label, onDevice, onRedraw }: Props) {
  const container = useRef<HTMLDivElement>(null);
  const map = useRef<MapLibreMap | null>(null);
  const handlers = useRef({ label, onDevice });
  useEffect(() => {
    handlers.current = { label, onDevice };
  });

  useEffect(() => {
    const m = new MapLibreMap({
      container: container.current!,
      style: baseStyle(theme),
      center: [60, 40],
      zoom: 1.6,
      minZoom: 1,
      maxZoom: 19,
      attributionControl: false,
      dragRotate: false,
      pitchWithRotate: false,
    });
    map.current = m;
    m.addControl(new NavigationControl({ showCompass: false }), 'top-right');
    m.addControl(new ScaleControl({}), 'bottom-left');
    m.touchZoomRotate.disableRotation();

    const layer = new MarkerLayer(m, {
      label: (s) => handlers.current.label(s),
      onDevice: (sn) => handlers.current.onDevice(sn),
      onCluster: async (id, lng, lat) => {
        const zoom = await worker.expansionZoom(id);
        m.easeTo({ center: [lng, lat], zoom: Math.min(zoom, CLUSTER_MAX_ZOOM + 1) });
      },
    });
    // Only the latest view request is drawn, so a slow answer never overwrites a newer one.
    let latest = 0;
    const redraw = async () => {
      const ticket = ++latest;
      const b = m.getBounds();
      const bbox: BBox = [Math.max(-180, b.getWest()), Math.max(-85, b.getSouth()), Math.min(180, b.getEast()), Math.min(85, b.getNorth())];
      const items = await worker.view(b.getEast() - b.getWest() >= 360 ? [-180, -85, 180, 85] : bbox, m.getZoom());
      if (ticket === latest && map.current === m) layer.show(items);
    };
    m.on('moveend', redraw);
    onRedraw(redraw);

    let cancelled = false;
    void fetch(worldUrl)
      .then((r) => r.json() as Promise<Topology>)
      .then((topology) => {
        if (cancelled) return;
        const setWorld = () => (m.getSource('countries') as GeoJSONSource).setData(worldGeoJson(topology));
        if (m.isStyleLoaded()) setWorld();
        else m.once('load', setWorld);
      });
    return () => {
      cancelled = true;
      layer.clear();
      m.remove();
      map.current = null;
    };
    // The map is created once; theme changes are applied below without rebuilding it.
  }, [worker]);

  useEffect(() => {
    const m = map.current;
    if (!m) return;
    if (m.isStyleLoaded()) applyPalette(m, theme);
    else m.once('load', () => applyPalette(m, theme));
  }, [theme]);

  return <div ref={container} className="fleet-map" data-testid="fleet-map" />;
}
