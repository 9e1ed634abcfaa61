import { describe, expect, it } from 'vitest';
import { deviceTopics } from '@mowerline/contract';
import { planFleet } from '../src/fleet.ts';
import { Mower } from '../src/mower.ts';

/** A mower that never connects, recording what it would publish (the ticks are driven by hand). */
function mower(telemetryIntervalMs?: number) {
  const [p] = planFleet(1, 'TICK', 3);
  const m = new Mower({ sn: p!.sn, secret: 'x'.repeat(43), mqttUrl: 'mqtt://127.0.0.1:9', model: p!.model.code, modelName: p!.model.name, firmware: p!.firmware, garden: p!.garden, rng: p!.rng, rainPerHour: 0, faultsPerHour: 0, telemetryIntervalMs });
  const topics: string[] = [];
  m.publish = async (suffix: string) => {
    topics.push(suffix);
    return false;
  };
  return { m, telemetry: () => topics.filter((t) => t === deviceTopics.telemetry).length };
}

/** Ticks `n` times by `dt` seconds; returns how many ticks changed the state (each reports at once). */
function drive(m: Mower, n: number, dt: number): number {
  let changes = 0;
  for (let i = 0; i < n; i++) {
    const before = m.sim.state;
    m.tick(dt);
    if (m.sim.state !== before) changes++;
  }
  return changes;
}

describe('telemetry period', () => {
  it('keeps the configured period on average even when the ticker is as coarse as the period', () => {
    const { m, telemetry } = mower(100);
    // Jittery ticks around the period (95–105 ms): a naive "due since the last report" rule would skip every other one.
    let changes = 0;
    for (let i = 0; i < 200; i++) changes += drive(m, 1, i % 2 === 0 ? 0.095 : 0.105);
    expect(changes).toBe(0);
    // 20 s in 200 ticks at a 100 ms period: one report per tick, none skipped.
    expect(telemetry()).toBe(200);
  });

  it('defaults to the shell setting telemetry.interval_s (5 s)', () => {
    const { m, telemetry } = mower();
    expect(drive(m, 60, 1)).toBe(0);
    // The first tick reports at once, then one report every 5 s of the 60.
    expect(telemetry()).toBe(1 + 60 / 5);
  });
});
