import { describe, expect, it } from 'vitest';
import { deviceStates, type DevicePositions } from '@mowerline/contract';
import { FleetIndex, type BBox } from './fleet-index.ts';

const WORLD: BBox = [-180, -85, 180, 85];
const mowing = deviceStates.indexOf('mowing');
const error = deviceStates.indexOf('error');
const offline = deviceStates.indexOf('offline');

function snapshot(n: number, full = true): DevicePositions {
  const p: DevicePositions = { next: new Date().toISOString(), full, sn: [], lat: [], lng: [], state: [] };
  for (let i = 0; i < n; i++) {
    p.sn.push(`SN${i}`);
    // Two towns: Stockholm and Shanghai.
    p.lat.push(i % 2 ? 59.33 + (i % 100) * 1e-4 : 31.23 + (i % 100) * 1e-4);
    p.lng.push(i % 2 ? 18.07 + (i % 50) * 1e-4 : 121.47 + (i % 50) * 1e-4);
    p.state.push(i % 10 === 0 ? error : mowing);
  }
  return p;
}

describe('FleetIndex', () => {
  it('clusters 100,000 devices into a few markers at world zoom, with per-state counts', () => {
    const fleet = new FleetIndex(deviceStates.length);
    fleet.merge(snapshot(100_000));
    const view = fleet.view(WORLD, 1);
    expect(view.devices).toEqual([]);
    expect(view.clusters.length).toBeLessThanOrEqual(4);
    expect(view.clusters.reduce((sum, c) => sum + c.count, 0)).toBe(100_000);
    const counts = view.clusters.reduce((acc, c) => acc.map((v, i) => v + c.counts[i]!), new Array<number>(deviceStates.length).fill(0));
    expect(counts[error]).toBe(10_000);
    expect(counts[mowing]).toBe(90_000);
  });

  it('shows single devices when zoomed in, merges deltas and filters by state', () => {
    const fleet = new FleetIndex(deviceStates.length);
    fleet.merge({ next: '', full: true, sn: ['A', 'B'], lat: [59.3, 31.2], lng: [18.0, 121.4], state: [mowing, mowing] });
    expect(fleet.view([17.9, 59.2, 18.1, 59.4], 16).devices).toEqual([{ sn: 'A', lng: 18.0, lat: 59.3, s: mowing }]);

    expect(fleet.merge({ next: '', full: false, sn: ['A'], lat: [59.3], lng: [18.0], state: [mowing] })).toBe(false);
    expect(fleet.merge({ next: '', full: false, sn: ['A'], lat: [59.31], lng: [18.01], state: [offline] })).toBe(true);
    expect(fleet.view([17.9, 59.2, 18.1, 59.4], 16).devices).toEqual([{ sn: 'A', lng: 18.01, lat: 59.31, s: offline }]);
    expect(fleet.size).toBe(2);
    expect(fleet.stateCounts()[offline]).toBe(1);

    fleet.setFilter([mowing]);
    expect(fleet.view(WORLD, 16).devices.map((d) => d.sn)).toEqual(['B']);
    fleet.merge({ next: '', full: true, sn: ['C'], lat: [0], lng: [0], state: [mowing] });
    expect(fleet.size).toBe(1);
  });
});

describe('FleetIndex cluster counts', () => {
  it('keeps each cluster’s state counts its own at every zoom', () => {
    const fleet = new FleetIndex(deviceStates.length);
    const sn = ['A', 'B', 'C'];
    fleet.merge({ next: '', full: true, sn, lat: [59.3293, 59.3297, 59.3301], lng: [18.0686, 18.0691, 18.0696], state: [mowing, error, offline] });
    for (let zoom = 0; zoom <= 17; zoom++) {
      const view = fleet.view([17, 59, 19, 60], zoom);
      for (const c of view.clusters) expect(c.counts.reduce((a, b) => a + b, 0), `zoom ${zoom}`).toBe(c.count);
      expect(view.clusters.reduce((a, c) => a + c.count, 0) + view.devices.length).toBe(3);
    }
  });
});

describe('FleetIndex cluster expansion', () => {
  it('answers null for a cluster that a rebuild removed, instead of throwing', () => {
    const fleet = new FleetIndex(deviceStates.length);
    fleet.merge(snapshot(1000));
    const [cluster] = fleet.view(WORLD, 1).clusters;
    expect(fleet.expansionZoom(cluster!.id)).toBeGreaterThan(1);
    // Every device moves away: the next index has no cluster with that id.
    const moved = snapshot(1000, true);
    moved.lat = moved.lat.map(() => -33.9);
    moved.lng = moved.lng.map((_, i) => 18.4 + i * 1e-6);
    fleet.merge(moved);
    fleet.view(WORLD, 1);
    expect(fleet.expansionZoom(cluster!.id + 999_999)).toBeNull();
  });
});
