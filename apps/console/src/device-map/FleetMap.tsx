import { useEffect, useRef } from 'react';
import { Map as MapLibreMap, NavigationControl, ScaleControl, setWorkerUrl } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import world110Url from 'world-atlas/countries-110m.json?url';
import world50Url from 'world-atlas/countries-50m.json?url';
import type { GeoJSONSource } from 'maplibre-gl';
import type { Topology } from 'topojson-specification';
import type { DeviceState, MapBase } from '@mowerline/contract';
import { CLUSTER_MAX_ZOOM, type BBox } from './fleet-index.ts';
import type { FleetWorker } from './fleet-protocol.ts';
import { applyPalette, baseStyle, detailLoaded, DETAIL_ZOOM, withOnlineTiles, type Detail } from './map-style.ts';
import { MarkerLayer } from './markers.ts';
import { PlaceLayer } from './places.ts';
import { worldGeoJson } from './world-geojson.ts';

setWorkerUrl(workerUrl);

interface Props {
  worker: FleetWorker;
  theme: 'light' | 'dark';
  /** The online base from the runtime configuration; empty fields: the offline base only. */
  base: MapBase;
  label(state: DeviceState): string;
  /** "Near {name} · {km} km" when the view holds no place of its own. */
  nearPlace(name: string, km: number): string;
  onDevice(sn: string): void;
  /** Called with a function that redraws the markers (the page calls it when the fleet changed). */
  onRedraw(redraw: () => void): void;
}

const worldUrl: Record<Detail, string> = { '110m': world110Url, '50m': world50Url };

/**
 * The map: offline countries underneath, clusters and devices from the fleet worker on top. Its own
 * chunk (maplibre is most of the map page's JavaScript): the page starts fetching positions meanwhile.
 */
export default function FleetMap({ worker, theme, base, label, nearPlace, onDevice, onRedraw }: Props) {
  const container = useRef<HTMLDivElement>(null);
  const map = useRef<MapLibreMap | null>(null);
  const handlers = useRef({ label, nearPlace, onDevice });
  useEffect(() => {
    handlers.current = { label, nearPlace, onDevice };
  });

  useEffect(() => {
    // A MapLibre style URL replaces the offline style; XYZ tiles are drawn over it.
    const ownStyle = base.styleUrl !== '';
    const m = new MapLibreMap({
      container: container.current!,
      style: ownStyle ? base.styleUrl : withOnlineTiles(baseStyle(theme), base),
      center: [60, 40],
      zoom: 1.6,
      minZoom: 1,
      maxZoom: 19,
      // Online maps must credit their source; the offline base needs no attribution.
      attributionControl: ownStyle || base.tileUrl ? { compact: false, ...(ownStyle && base.attribution ? { customAttribution: base.attribution } : {}) } : false,
      // Nothing fades (no symbol layers): no extra frames after a move ends.
      fadeDuration: 0,
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
        // A cluster rebuilt away since it was drawn still zooms in where it was clicked.
        const zoom = (await worker.expansionZoom(id)) ?? m.getZoom() + 2;
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
    // The offline base gets place names from the server's gazetteer; online maps carry their own.
    const places = ownStyle || base.tileUrl ? undefined : new PlaceLayer(m, (name, km) => handlers.current.nearPlace(name, km));
    if (places) m.on('moveend', () => void places.update());
    onRedraw(redraw);
    // The positions may have been indexed before the map was loaded: draw what the worker has now.
    void redraw();

    // The outlines never hold up the fleet: each arrives on its own and is drawn when it is in.
    let cancelled = false;
    const loadWorld = (detail: Detail) =>
      fetch(worldUrl[detail])
        .then((r) => r.json() as Promise<Topology>)
        .then((topology) => {
          if (cancelled) return;
          const setWorld = () => {
            (m.getSource(`countries-${detail}`) as GeoJSONSource).setData(worldGeoJson(topology));
            if (detail === '50m') detailLoaded(m);
          };
          if (m.isStyleLoaded()) setWorld();
          else m.once('load', setWorld);
        });
    if (ownStyle) return cleanup;
    void loadWorld('110m');
    // The 1:50m outline (7 times the bytes) only when the view gets close to needing it.
    const onZoom = () => {
      if (m.getZoom() < DETAIL_ZOOM - 0.5) return;
      m.off('zoom', onZoom);
      void loadWorld('50m');
    };
    m.on('zoom', onZoom);
    return cleanup;
    function cleanup() {
      cancelled = true;
      layer.clear();
      places?.clear();
      m.remove();
      map.current = null;
    }
    // The map is created once; theme changes are applied below without rebuilding it.
  }, [worker, base]);

  useEffect(() => {
    const m = map.current;
    // A style of its own brings its own colours.
    if (!m || base.styleUrl) return;
    if (m.isStyleLoaded()) applyPalette(m, theme);
    else m.once('load', () => applyPalette(m, theme));
  }, [theme, base]);

  return <div ref={container} className="fleet-map" data-testid="fleet-map" />;
}
