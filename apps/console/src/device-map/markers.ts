import { Marker, type Map as MapLibreMap } from 'maplibre-gl';
import { deviceStates, type DeviceState } from '@mowerline/contract';
import { stateHex } from '../devices/device-labels.ts';
import type { ViewItems } from './fleet-index.ts';

const ERROR = deviceStates.indexOf('error');

/** 1234 → "1.2k", 120000 → "120k". */
export function shortCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 10_000) return `${(n / 1000).toFixed(1).replace(/\.0$/, '')}k`;
  return `${Math.round(n / 1000)}k`;
}

/** The state most devices in a cluster are in (errors aside: they get their own badge). */
export function dominantState(counts: number[]): DeviceState {
  let best = 0;
  for (let i = 1; i < counts.length; i++) if (counts[i]! > counts[best]!) best = i;
  return deviceStates[best] ?? 'offline';
}

interface Handlers {
  onCluster(id: number, lng: number, lat: number): void;
  onDevice(sn: string): void;
  label(state: DeviceState): string;
}

/**
 * HTML markers for what one view shows: clustering keeps them to a few hundred whatever the fleet
 * size. Devices are keyed by SN so a live position moves its marker instead of replacing it.
 */
export class MarkerLayer {
  private clusters: Marker[] = [];
  private readonly devices = new Map<string, { marker: Marker; state: number }>();

  constructor(
    private readonly map: MapLibreMap,
    private readonly handlers: Handlers,
  ) {}

  show(items: ViewItems): void {
    for (const m of this.clusters) m.remove();
    this.clusters = items.clusters.map((c) => new Marker({ element: this.clusterElement(c) }).setLngLat([c.lng, c.lat]).addTo(this.map));
    const seen = new Set<string>();
    for (const d of items.devices) {
      seen.add(d.sn);
      const existing = this.devices.get(d.sn);
      if (existing && existing.state === d.s) {
        existing.marker.setLngLat([d.lng, d.lat]);
        continue;
      }
      existing?.marker.remove();
      const marker = new Marker({ element: this.deviceElement(d.sn, d.s) }).setLngLat([d.lng, d.lat]).addTo(this.map);
      this.devices.set(d.sn, { marker, state: d.s });
    }
    for (const [sn, { marker }] of this.devices) {
      if (seen.has(sn)) continue;
      marker.remove();
      this.devices.delete(sn);
    }
  }

  clear(): void {
    this.show({ clusters: [], devices: [] });
  }

  private clusterElement(c: ViewItems['clusters'][number]): HTMLElement {
    const el = document.createElement('button');
    el.type = 'button';
    el.className = 'fleet-cluster';
    el.dataset.testid = 'fleet-cluster';
    el.dataset.count = String(c.count);
    const size = Math.round(28 + Math.min(28, Math.log10(c.count) * 9));
    const state = dominantState(c.counts.map((n, i) => (i === ERROR ? 0 : n)));
    el.style.width = el.style.height = `${size}px`;
    el.style.setProperty('--fleet-color', stateHex[state]);
    el.textContent = shortCount(c.count);
    el.title = c.counts
      .map((n, i) => (n > 0 ? `${this.handlers.label(deviceStates[i]!)}: ${n}` : ''))
      .filter(Boolean)
      .join('\n');
    const errors = c.counts[ERROR] ?? 0;
    if (errors > 0) {
      const badge = document.createElement('span');
      badge.className = 'fleet-cluster-errors';
      badge.textContent = shortCount(errors);
      el.appendChild(badge);
    }
    el.addEventListener('click', (e) => {
      e.stopPropagation();
      this.handlers.onCluster(c.id, c.lng, c.lat);
    });
    return el;
  }

  private deviceElement(sn: string, s: number): HTMLElement {
    const el = document.createElement('button');
    el.type = 'button';
    el.className = 'fleet-device';
    el.dataset.testid = 'fleet-device';
    el.dataset.sn = sn;
    const state = deviceStates[s] ?? 'offline';
    el.dataset.state = state;
    el.style.setProperty('--fleet-color', stateHex[state]);
    el.title = `${sn} · ${this.handlers.label(state)}`;
    el.addEventListener('click', (e) => {
      e.stopPropagation();
      this.handlers.onDevice(sn);
    });
    return el;
  }
}
