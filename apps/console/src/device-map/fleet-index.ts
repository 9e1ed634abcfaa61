import Supercluster from 'supercluster';
import type { DevicePositions } from '@mowerline/contract';

/**
 * A device's properties, or a cluster's: how many devices of each state, `c{index into deviceStates}`
 * (a cluster also keeps the `sn`/`s` of the point it grew from; only its counts mean anything).
 */
type Counted = DeviceProps & { [state: `c${number}`]: number | undefined };

export interface DeviceProps {
  sn: string;
  /** Index into `deviceStates`. */
  s: number;
}

export type BBox = [west: number, south: number, east: number, north: number];

/** What the map draws for one view: clusters (with state counts) and single devices. */
export interface ViewItems {
  clusters: Array<{ id: number; lng: number; lat: number; count: number; counts: number[] }>;
  devices: Array<{ sn: string; lng: number; lat: number; s: number }>;
}

export const CLUSTER_RADIUS = 60;
export const CLUSTER_MAX_ZOOM = 16;

/**
 * The fleet as the map needs it: latest position and state per SN (full snapshots and deltas
 * merged), clustered with supercluster. Pure, so it runs in a Web Worker and in unit tests alike.
 */
export class FleetIndex {
  private readonly devices = new Map<string, { lng: number; lat: number; s: number }>();
  private index: Supercluster<DeviceProps, Counted> | undefined;
  private stateFilter: Set<number> | undefined;
  private readonly stateCount: number;

  constructor(stateCount: number) {
    this.stateCount = stateCount;
  }

  /** Applies a snapshot (replaces everything) or a delta (updates the devices it lists). True when anything changed. */
  merge(p: DevicePositions): boolean {
    let changed = p.full && this.devices.size > 0;
    if (p.full) this.devices.clear();
    for (let i = 0; i < p.sn.length; i++) {
      const before = this.devices.get(p.sn[i]!);
      const next = { lng: p.lng[i]!, lat: p.lat[i]!, s: p.state[i]! };
      if (!before || before.lng !== next.lng || before.lat !== next.lat || before.s !== next.s) {
        this.devices.set(p.sn[i]!, next);
        changed = true;
      }
    }
    if (changed) this.index = undefined;
    return changed;
  }

  /** Only these states are shown (undefined: all). */
  setFilter(states: number[] | undefined): void {
    this.stateFilter = states ? new Set(states) : undefined;
    this.index = undefined;
  }

  /** Devices per state, over the whole fleet (the legend). */
  stateCounts(): number[] {
    const counts = new Array<number>(this.stateCount).fill(0);
    for (const d of this.devices.values()) counts[d.s] = (counts[d.s] ?? 0) + 1;
    return counts;
  }

  get size(): number {
    return this.devices.size;
  }

  /** Builds the cluster index now (the worker does it as soon as positions arrive, before the map asks). */
  prepare(): void {
    this.build();
  }

  private build(): Supercluster<DeviceProps, Counted> {
    if (this.index) return this.index;
    const n = this.stateCount;
    // Keys made once: reduce runs for every point and cluster merged at every zoom level.
    const keys = Array.from({ length: n }, (_, i) => `c${i}` as const);
    // `map` hands a device's own properties over, so the 100,000 devices cost no object each; only
    // clusters get counts (supercluster gives each cluster its own shallow copy to reduce into, so
    // the counts are scalar properties: a shared array would be summed into by several clusters).
    const index = new Supercluster<DeviceProps, Counted>({
      radius: CLUSTER_RADIUS,
      maxZoom: CLUSTER_MAX_ZOOM,
      map: (p) => p as Counted,
      reduce: (acc, p) => {
        // A copy of a device's properties starts counting from that one device.
        if (acc.c0 === undefined) for (let i = 0; i < n; i++) acc[keys[i]!] = i === acc.s ? 1 : 0;
        if (p.c0 === undefined) acc[keys[p.s]!] = (acc[keys[p.s]!] ?? 0) + 1;
        else for (const k of keys) acc[k] = (acc[k] ?? 0) + (p[k] ?? 0);
      },
    });
    const points: Array<GeoJSON.Feature<GeoJSON.Point, DeviceProps>> = [];
    for (const [sn, d] of this.devices) {
      if (this.stateFilter && !this.stateFilter.has(d.s)) continue;
      points.push({ type: 'Feature', geometry: { type: 'Point', coordinates: [d.lng, d.lat] }, properties: { sn, s: d.s } });
    }
    index.load(points);
    this.index = index;
    return index;
  }

  /** Clusters and single devices inside `bbox` at `zoom`. */
  view(bbox: BBox, zoom: number): ViewItems {
    const items: ViewItems = { clusters: [], devices: [] };
    for (const f of this.build().getClusters(bbox, Math.round(zoom))) {
      const [lng, lat] = f.geometry.coordinates as [number, number];
      const props = f.properties as (Counted & { cluster: true; cluster_id: number; point_count: number }) | (DeviceProps & { cluster?: false });
      if (props.cluster) {
        const counts = Array.from({ length: this.stateCount }, (_, i) => props[`c${i}`] ?? 0);
        items.clusters.push({ id: props.cluster_id, lng, lat, count: props.point_count, counts });
      }
      else {
        // Exact coordinates (the index stores them rounded to float32).
        const d = this.devices.get(props.sn);
        items.devices.push({ sn: props.sn, lng: d?.lng ?? lng, lat: d?.lat ?? lat, s: props.s });
      }
    }
    return items;
  }

  /**
   * The zoom at which a cluster falls apart (a click zooms there), or null when the cluster is gone:
   * a position update rebuilt the index between drawing the cluster and the click.
   */
  expansionZoom(clusterId: number): number | null {
    try {
      return this.build().getClusterExpansionZoom(clusterId);
    } catch {
      return null;
    }
  }
}
