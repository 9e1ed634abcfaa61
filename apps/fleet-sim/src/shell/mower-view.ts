/**
 * What the mower shell sees of the simulated mower. The simulator's mower implements it; the
 * shell only reads state and asks for changes through it, so every answer is the mower's own.
 */
export interface MowerView {
  readonly sn: string;
  readonly model: string;
  firmware(): string;
  telemetry(): {
    state: string;
    activity: string;
    battery: number;
    charging: boolean;
    position: { lat: number; lng: number; heading: number } | null;
    bladeRpm: number;
    rssi: number;
    errorCode: string | null;
  };
  uptimeS(): number;
  /** Recent log lines, oldest first. */
  logs(): readonly string[];
  settings: MowerSettings;
  /** Restarts the mower after `delayMs` (its sessions end, it reconnects). */
  reboot(delayMs: number): void;
  ota(): { state: string; version: string | null; progress: number | null };
}

type SettingValue = string | number | boolean;
interface SettingRule {
  describe: string;
  parse(raw: string): SettingValue | undefined;
}

const intIn = (min: number, max: number, unit: string): SettingRule => ({
  describe: `integer ${min}–${max}${unit ? ` ${unit}` : ''}`,
  parse: (raw) => (/^-?\d+$/.test(raw) && Number(raw) >= min && Number(raw) <= max ? Number(raw) : undefined),
});
const bool: SettingRule = { describe: 'true or false', parse: (raw) => (raw === 'true' ? true : raw === 'false' ? false : undefined) };
const oneOf = (...values: string[]): SettingRule => ({ describe: values.join(' | '), parse: (raw) => (values.includes(raw) ? raw : undefined) });

/** The settings a mower exposes to its shell, each with its rule; values change only through `set`. */
export const settingRules: Record<string, SettingRule> = {
  'cutting.height_mm': intIn(20, 60, 'mm'),
  'cutting.pattern': oneOf('random', 'parallel', 'spiral'),
  'schedule.enabled': bool,
  'rain.sensor': bool,
  'rain.delay_min': intIn(0, 720, 'min'),
  'battery.return_percent': intIn(10, 50, '%'),
  'anti_theft.alarm': bool,
  'telemetry.interval_s': intIn(5, 60, 's'),
  'led.brightness': intIn(0, 100, '%'),
};

export class MowerSettings {
  private readonly values = new Map<string, SettingValue>([
    ['cutting.height_mm', 40],
    ['cutting.pattern', 'parallel'],
    ['schedule.enabled', true],
    ['rain.sensor', true],
    ['rain.delay_min', 120],
    ['battery.return_percent', 20],
    ['anti_theft.alarm', true],
    ['telemetry.interval_s', 5],
    ['led.brightness', 70],
  ]);

  constructor(private readonly onChange: (key: string, value: SettingValue) => void = () => {}) {}

  keys(): string[] {
    return [...this.values.keys()];
  }

  get(key: string): SettingValue | undefined {
    return this.values.get(key);
  }

  /** Undefined on success, else why the value was refused. */
  set(key: string, raw: string): string | undefined {
    const rule = settingRules[key];
    if (!rule) return `unknown key: ${key}`;
    const value = rule.parse(raw);
    if (value === undefined) return `invalid value for ${key}: expected ${rule.describe}`;
    this.values.set(key, value);
    this.onChange(key, value);
    return undefined;
  }
}
