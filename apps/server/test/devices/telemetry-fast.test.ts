import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTelemetryFast, telemetrySchema } from '@mowerline/contract';

const valid = {
  v: 1,
  ts: 1_763_900_000_000,
  state: 'mowing',
  activity: 'mowing',
  errorCode: null,
  battery: 80,
  position: { lat: 52.5, lng: 13.4, heading: 359.9 },
  bladeRpm: 3000,
  rssi: -70,
  firmware: '1.4.2-rc.1',
};

/** Each field's value: valid ones, edge values on both sides of every bound, and wrong types. */
const anything = fc.constantFrom<unknown>(undefined, null, '', 'x', true, [], {}, 0, -1, 1.5, Number.MAX_SAFE_INTEGER + 2, '1');
const field = {
  v: fc.constantFrom<unknown>(1, 2, '1', 1.0, 0),
  ts: fc.constantFrom<unknown>(1_500_000_000_000, 1_499_999_999_999, 4_102_444_800_000, 4_102_444_800_001, 1_763_900_000_000.5),
  state: fc.constantFrom<unknown>('idle', 'error', 'offline', 'Mowing', 'toString', '__proto__'),
  activity: fc.constantFrom<unknown>('unknown', 'parked_in_cs', 'mowing ', 'constructor'),
  errorCode: fc.constantFrom<unknown>(null, 'BLADE_BLOCKED', 'B', 'blade', `A${'B'.repeat(47)}`, `A${'B'.repeat(48)}`),
  battery: fc.constantFrom<unknown>(0, 100, 101, -1, 50.5),
  position: fc.oneof(
    fc.constant<unknown>(null),
    fc.record({
      lat: fc.constantFrom<unknown>(-90, 90, 90.0001, 0),
      lng: fc.constantFrom<unknown>(-180, 180, -180.5, 13.4),
      heading: fc.constantFrom<unknown>(0, 359.999, 360, -0.1),
      extra: fc.constantFrom<unknown>(undefined, 'dropped'),
    }, { requiredKeys: [] }),
    anything,
  ),
  bladeRpm: fc.constantFrom<unknown>(0, 10_000, 10_001, 1.5),
  rssi: fc.constantFrom<unknown>(-150, 0, 1, -151, -70.5),
  firmware: fc.constantFrom<unknown>('1.0.0', '1.0', `1.0.0-${'a'.repeat(16)}`, `1.0.0-${'a'.repeat(17)}`, '12345.0.0', '1.0.0+build.7'),
};

describe('parseTelemetryFast', () => {
  it('reads a valid report as the schema does, unknown keys stripped', () => {
    const input = { ...valid, extra: 'dropped' };
    expect(parseTelemetryFast(input)).toStrictEqual(telemetrySchema.parse(input));
  });

  it('gives the schema\'s verdict and output on every mix of valid, edge and wrong fields', () => {
    const report = fc.record(Object.fromEntries(Object.entries(field).map(([k, arb]) => [k, fc.oneof({ weight: 3, arbitrary: fc.constant((valid as Record<string, unknown>)[k]) }, { weight: 2, arbitrary: arb }, { weight: 1, arbitrary: anything })])), { requiredKeys: [] });
    const input = fc.oneof({ weight: 9, arbitrary: report }, { weight: 1, arbitrary: anything });
    fc.assert(
      fc.property(input, (json) => {
        const schema = telemetrySchema.safeParse(json);
        const fast = parseTelemetryFast(json);
        expect(fast === undefined).toBe(!schema.success);
        if (schema.success) expect(fast).toStrictEqual(schema.data);
      }),
      { numRuns: 20_000 },
    );
  });
});
