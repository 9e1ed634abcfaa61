import { eventCatalogue, type EventSeverity, type MowerActivity, type ReportedState } from '@mowerline/contract';
import { stepTowards, type Garden, type Point } from './garden.ts';
import { between, type Rng } from './rng.ts';

/** Rates in real mower units (per second of simulated time). */
const MOW_SPEED_MS = 0.45;
const TRAVEL_SPEED_MS = 0.6;
/** A full battery lasts about 75 minutes of mowing and recharges in about 50. */
const DRAIN_MOWING = 100 / (75 * 60);
const DRAIN_TRAVEL = 100 / (120 * 60);
const CHARGE_RATE = 100 / (50 * 60);
const BLADE_RPM = 3100;

/** Faults a mower can have while mowing, with how likely each is. */
const FAULTS: Array<{ code: string; weight: number; message: string; minS: number; maxS: number }> = [
  { code: 'BLADE_BLOCKED', weight: 5, message: 'Blade motor current above limit', minS: 60, maxS: 240 },
  { code: 'STUCK', weight: 5, message: 'No forward progress for 30 s', minS: 60, maxS: 300 },
  { code: 'LIFTED', weight: 4, message: 'Lift sensor triggered', minS: 30, maxS: 120 },
  { code: 'WHEEL_MOTOR_OVERLOAD', weight: 3, message: 'Left wheel motor overloaded', minS: 60, maxS: 180 },
  { code: 'OUTSIDE_WORKING_AREA', weight: 4, message: 'Position outside the mapped boundary', minS: 30, maxS: 120 },
  { code: 'GNSS_FIX_LOST', weight: 4, message: 'RTK fix lost', minS: 30, maxS: 120 },
  { code: 'COLLISION_SENSOR', weight: 3, message: 'Bumper sensor reads pressed', minS: 30, maxS: 90 },
  { code: 'UPSIDE_DOWN', weight: 1, message: 'Tilt above 120 degrees', minS: 300, maxS: 600 },
  { code: 'BATTERY_OVERHEAT', weight: 1, message: 'Battery cell temperature 68 °C', minS: 300, maxS: 600 },
];
const FAULT_WEIGHT = FAULTS.reduce((s, f) => s + f.weight, 0);

export interface SimEvent {
  code: string;
  severity: EventSeverity;
  message: string;
  context: Record<string, string | number | boolean | null>;
}

export interface SimOptions {
  /** Random faults per mower per hour of mowing (simulated time). */
  faultsPerHour: number;
  /** Rain showers per hour of mowing. */
  rainPerHour: number;
  /** Battery percentage at which the mower heads home. */
  returnPercent: () => number;
}

/**
 * One mower's behaviour, free of any networking: charge at the station, leave, mow the lawn in
 * stripes, head home on a low battery, pause for rain, stop on faults and recover. `tick` advances
 * it by simulated seconds and returns the events it raised.
 */
export class MowerSim {
  state: ReportedState = 'charging';
  activity: MowerActivity = 'charging';
  errorCode: string | null = null;
  battery: number;
  position: Point;
  heading = 0;
  rssi: number;
  private routeIndex = 0;
  /** Simulated seconds left in a timed state (parked, paused, error, booting). */
  private remaining = 0;
  /** Where mowing resumes after a pause or a fault. */
  private resumeTo: ReportedState = 'mowing';

  constructor(
    readonly garden: Garden,
    private readonly rng: Rng,
    private readonly opts: SimOptions,
  ) {
    this.battery = between(rng, 30, 100);
    this.rssi = Math.round(between(rng, -85, -55));
    // Start somewhere in the cycle, so a fresh fleet is not in lock-step.
    const roll = rng();
    if (roll < 0.55) {
      this.routeIndex = Math.floor(rng() * garden.stripes.length);
      this.position = { ...garden.stripes[this.routeIndex]! };
      this.enter('mowing');
    } else {
      this.position = { ...garden.home };
      this.enter(roll < 0.85 ? 'charging' : 'idle');
      this.remaining = between(rng, 30, 600);
    }
  }

  get bladeRpm(): number {
    return this.state === 'mowing' ? BLADE_RPM + Math.round(between(this.rng, -80, 80)) : 0;
  }

  get charging(): boolean {
    return this.state === 'charging';
  }

  /** Advances the simulation by `dt` simulated seconds. */
  tick(dt: number): SimEvent[] {
    const events: SimEvent[] = [];
    this.rssi = Math.max(-110, Math.min(-40, this.rssi + Math.round(between(this.rng, -2, 2))));
    switch (this.state) {
      case 'charging':
        this.battery = Math.min(100, this.battery + CHARGE_RATE * dt);
        if (this.battery >= 100) {
          this.enter('idle');
          this.remaining = between(this.rng, 60, 900);
        }
        break;
      case 'idle':
        this.remaining -= dt;
        if (this.remaining <= 0) {
          if (this.atHome() && this.battery < 95) this.enter('charging');
          else if (this.atHome()) this.enter('mowing', 'leaving');
          else this.enter('returning');
        }
        break;
      case 'mowing':
        this.battery -= (this.activity === 'leaving' ? DRAIN_TRAVEL : DRAIN_MOWING) * dt;
        this.moveAlongStripes(dt);
        if (this.battery <= this.opts.returnPercent()) {
          events.push(this.event('LOW_BATTERY', 'Battery low, returning to the charging station', { battery: Math.round(this.battery) }));
          this.enter('returning');
        } else if (this.rng() < (this.opts.faultsPerHour * dt) / 3600) {
          events.push(this.fault());
        } else if (this.rng() < (this.opts.rainPerHour * dt) / 3600) {
          events.push(this.event('RAIN_DELAY', 'Rain sensor wet, pausing', { delayMin: 10 }));
          this.enter('paused');
          this.remaining = between(this.rng, 120, 600);
        }
        break;
      case 'returning': {
        this.battery = Math.max(0, this.battery - DRAIN_TRAVEL * dt);
        const step = stepTowards(this.position, this.garden.home, TRAVEL_SPEED_MS * dt);
        this.face(step.point);
        if (step.arrived) this.enter('charging');
        break;
      }
      case 'paused':
      case 'error':
        this.remaining -= dt;
        if (this.remaining <= 0) this.enter(this.battery <= this.opts.returnPercent() ? 'returning' : this.resumeTo);
        break;
      case 'updating':
        break;
    }
    return events;
  }

  /** A fault now (tests, or `fault` injected by hand): the mower stops where it is. */
  fault(code?: string): SimEvent {
    let chosen = FAULTS.find((f) => f.code === code);
    if (!chosen) {
      let r = this.rng() * FAULT_WEIGHT;
      chosen = FAULTS.find((f) => (r -= f.weight) < 0) ?? FAULTS[0]!;
    }
    this.resumeTo = this.state === 'returning' ? 'returning' : 'mowing';
    this.enter('error');
    this.errorCode = chosen.code;
    this.remaining = between(this.rng, chosen.minS, chosen.maxS);
    const where = this.garden.toLatLng(this.position);
    return this.event(chosen.code, chosen.message, { lat: round(where.lat, 6), lng: round(where.lng, 6), battery: Math.round(this.battery) });
  }

  /** After a reboot the mower starts idle where it stands and carries on shortly after. */
  rebooted(): void {
    this.enter('idle');
    this.remaining = 10;
  }

  setUpdating(on: boolean): void {
    if (on) this.enter('updating');
    else if (this.state === 'updating') this.rebooted();
  }

  private atHome(): boolean {
    return Math.hypot(this.position.x - this.garden.home.x, this.position.y - this.garden.home.y) < 0.5;
  }

  private moveAlongStripes(dt: number) {
    let budget = (this.activity === 'leaving' ? TRAVEL_SPEED_MS : MOW_SPEED_MS) * dt;
    while (budget > 0) {
      const target = this.garden.stripes[this.routeIndex]!;
      const step = stepTowards(this.position, target, budget);
      budget -= Math.hypot(step.point.x - this.position.x, step.point.y - this.position.y);
      this.face(step.point);
      if (!step.arrived) break;
      if (this.activity === 'leaving') this.activity = 'mowing';
      // The lawn is done: start again from the first stripe.
      this.routeIndex = (this.routeIndex + 1) % this.garden.stripes.length;
      if (budget <= 1e-9) break;
    }
  }

  private face(next: Point) {
    if (next.x !== this.position.x || next.y !== this.position.y) this.heading = this.garden.heading(this.position, next);
    this.position = next;
  }

  private enter(state: ReportedState, activity?: MowerActivity) {
    this.state = state;
    if (state !== 'error') this.errorCode = null;
    this.activity =
      activity ??
      ({
        idle: this.atHome() ? 'parked_in_cs' : 'stopped_in_garden',
        mowing: 'mowing',
        returning: 'going_home',
        charging: 'charging',
        paused: 'stopped_in_garden',
        error: 'stopped_in_garden',
        updating: this.atHome() ? 'parked_in_cs' : 'stopped_in_garden',
      } as const)[state];
    if (state === 'mowing' && activity === 'leaving') this.routeIndex = 0;
  }

  private event(code: string, message: string, context: SimEvent['context']): SimEvent {
    return { code, severity: eventCatalogue[code]?.severity ?? 'minor', message, context };
  }
}

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

