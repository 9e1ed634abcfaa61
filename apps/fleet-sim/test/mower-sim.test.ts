import { describe, expect, it } from 'vitest';
import { Garden } from '../src/garden.ts';
import { MowerSim } from '../src/mower-sim.ts';
import { createRng } from '../src/rng.ts';

const quiet = { faultsPerHour: 0, rainPerHour: 0, returnPercent: () => 20 };

/** A sim that starts mowing (seeds are searched so the test does not depend on one roll). */
function mowingSim(opts = quiet) {
  for (let seed = 1; seed < 100; seed++) {
    const sim = new MowerSim(new Garden(59.33, 18.07, createRng(seed)), createRng(seed), opts);
    if (sim.state === 'mowing') return sim;
  }
  throw new Error('no seed starts mowing');
}

describe('mower simulation', () => {
  it('mows back and forth in stripes inside its garden', () => {
    const sim = mowingSim();
    sim.battery = 100;
    const rows = new Set<number>();
    for (let t = 0; t < 600; t++) {
      sim.tick(1);
      if (sim.activity === 'mowing') {
        expect(sim.garden.contains(sim.position)).toBe(true);
        rows.add(Math.round(sim.position.y * 2) / 2);
        expect(sim.bladeRpm).toBeGreaterThan(2900);
      }
    }
    // Ten minutes at 0.45 m/s cover several stripes.
    expect(rows.size).toBeGreaterThan(3);
    expect(sim.battery).toBeLessThan(100);
  });

  it('heads home on a low battery, charges, then goes out again', () => {
    const sim = mowingSim();
    sim.battery = 21;
    const seen: string[] = [];
    const events: string[] = [];
    for (let t = 0; t < 6 * 3600 && !(seen.includes('charging') && sim.state === 'mowing'); t++) {
      events.push(...sim.tick(1).map((e) => e.code));
      if (seen.at(-1) !== sim.state) seen.push(sim.state);
    }
    expect(seen.slice(0, 4)).toEqual(['mowing', 'returning', 'charging', 'idle']);
    expect(seen.at(-1)).toBe('mowing');
    expect(events).toContain('LOW_BATTERY');
    // It charged at the station.
    expect(sim.battery).toBeGreaterThan(95);
  });

  it('stops on a fault with its code and recovers on its own', () => {
    const sim = mowingSim();
    sim.battery = 90;
    const event = sim.fault('BLADE_BLOCKED');
    expect(event).toMatchObject({ code: 'BLADE_BLOCKED', severity: 'major' });
    expect(sim).toMatchObject({ state: 'error', errorCode: 'BLADE_BLOCKED', activity: 'stopped_in_garden' });
    expect(sim.bladeRpm).toBe(0);
    const where = { ...sim.position };
    let t = 0;
    while (sim.state === 'error' && t < 3600) t += sim.tick(1).length + 1;
    expect(sim.position).toEqual(where);
    expect(sim.state).toBe('mowing');
    expect(sim.errorCode).toBeNull();
    expect(sim.fault('UPSIDE_DOWN').severity).toBe('critical');
  });

  it('raises random faults and rain pauses at the configured rates', () => {
    const sim = mowingSim({ faultsPerHour: 3600, rainPerHour: 0, returnPercent: () => 1 });
    sim.battery = 100;
    const codes = new Set<string>();
    for (let t = 0; t < 3600; t++) for (const e of sim.tick(1)) codes.add(e.code);
    expect(codes.size).toBeGreaterThan(3);
    const rainy = mowingSim({ faultsPerHour: 0, rainPerHour: 3600, returnPercent: () => 1 });
    rainy.battery = 100;
    expect(rainy.tick(1).map((e) => e.code)).toEqual(['RAIN_DELAY']);
    expect(rainy.state).toBe('paused');
  });

  it('places gardens on the globe with compass headings', () => {
    const garden = new Garden(35.6762, 139.6503, createRng(7));
    const corners = garden.polygon();
    for (const [lat, lng] of corners) {
      expect(Math.abs(lat - 35.6762)).toBeLessThan(0.001);
      expect(Math.abs(lng - 139.6503)).toBeLessThan(0.001);
    }
    const a = garden.toLatLng({ x: 0, y: 0 });
    const b = garden.toLatLng({ x: 10, y: 0 });
    const h = garden.heading({ x: 0, y: 0 }, { x: 10, y: 0 });
    const bearing = ((Math.atan2((b.lng - a.lng) * Math.cos((a.lat * Math.PI) / 180), b.lat - a.lat) * 180) / Math.PI + 360) % 360;
    expect(Math.abs(h - bearing)).toBeLessThan(0.5);
  });
});
