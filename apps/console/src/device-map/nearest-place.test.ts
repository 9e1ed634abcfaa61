import { describe, expect, it } from 'vitest';
import { distanceKm, nearestPlace } from './nearest-place.ts';

describe('the nearest place of a garden-sized view', () => {
  it('measures great-circle distances', () => {
    // Stockholm → Uppsala is about 64 km.
    expect(distanceKm({ lat: 59.3293, lng: 18.0686 }, { lat: 59.8586, lng: 17.6389 })).toBeGreaterThan(60);
    expect(distanceKm({ lat: 59.3293, lng: 18.0686 }, { lat: 59.8586, lng: 17.6389 })).toBeLessThan(68);
    expect(distanceKm({ lat: 10, lng: 10 }, { lat: 10, lng: 10 })).toBe(0);
  });

  it('picks the closest place, not the most populous one', () => {
    const garden = { lat: 59.36, lng: 17.97 };
    const near = nearestPlace(garden, [
      { name: 'Stockholm', lat: 59.3293, lng: 18.0686 },
      { name: 'Bromma', lat: 59.3383, lng: 17.9397 },
    ]);
    expect(near?.place.name).toBe('Bromma');
    expect(near!.km).toBeLessThan(4);
    expect(nearestPlace(garden, [])).toBeUndefined();
  });
});
