import { SN_PATTERN } from '@mowerline/contract';
import { ApiClient } from './api-client.ts';
import { otaFeature, shellFeature } from './features.ts';
import { taskFeature } from './tasks.ts';
import { Garden } from './garden.ts';
import { Mower, type MowerExtension } from './mower.ts';
import { places } from './places.ts';
import { registerFleet, type DeviceSpec } from './registration.ts';
import { between, createRng, pick } from './rng.ts';
import { SecretsStore } from './secrets-store.ts';

/** The product lines of the simulated fleet and the firmware versions found in the field. */
export const simModels = [
  { code: 'ML-S1', name: 'Mowerline S1', firmware: ['1.4.2', '1.5.0'] },
  { code: 'ML-S2', name: 'Mowerline S2 Pro', firmware: ['2.0.3', '2.1.0'] },
  { code: 'ML-X9', name: 'Mowerline X9 AWD', firmware: ['3.2.1'] },
] as const;

export interface FleetOptions {
  count: number;
  /** Where the mowers connect (mqtt://, mqtts://, ws://, wss://). */
  mqttUrl: string;
  /** The platform's HTTP address; with a token or credentials the fleet registers its SNs there. */
  apiUrl?: string;
  token?: string;
  credentials?: { username: string; password: string };
  /** Already registered mowers (sn → secret): no API calls at all. */
  devices?: Map<string, string>;
  /** SN prefix; SNs are `{prefix}{000001…}`. */
  snPrefix?: string;
  seed?: number;
  timeScale?: number;
  faultsPerHour?: number;
  rainPerHour?: number;
  keepaliveS?: number;
  backoffBaseMs?: number;
  /** Keeps the mowers' secrets between runs (JSON, mode 0600). */
  secretsFile?: string;
  /** New connections per second while the fleet comes up (a whole fleet at once is a storm). */
  connectRate?: number;
  /** Telemetry period of every mower (default: each mower's `telemetry.interval_s`, 5 s). */
  telemetryIntervalMs?: number;
  /** How often each mower is advanced (default 1 s, or half the telemetry period when that is shorter). */
  tickMs?: number;
  /** Device features to plug into each mower; default: the remote shell, plus OTA when `otaPublicKeyPem` is given. */
  extensions?: (mower: Mower) => MowerExtension[];
  /** The platform's OTA signing key (PEM), pinned in every mower; by default read from `apiUrl` (`GET /api/ota/public-key`). */
  otaPublicKeyPem?: string;
  log?: (line: string) => void;
}

export interface Fleet {
  readonly mowers: Mower[];
  /** Each mower's label pairing code, when this fleet registered the SNs (owners bind with it). */
  readonly pairingCodes: Map<string, string>;
  /** Where each mower's garden is. */
  readonly gardens: Array<{ sn: string; city: string; lat: number; lng: number }>;
  /** Mowers connected right now. */
  connected(): number;
  /** Resolves once `n` (default: all) mowers are connected; rejects after `timeoutMs`. */
  waitConnected(n?: number, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** Which mowers the fleet has: SN, model, firmware, and a garden near a city in Europe or Asia. */
export function planFleet(count: number, prefix: string, seed: number) {
  const rng = createRng(seed);
  return Array.from({ length: count }, (_, i) => {
    const sn = `${prefix}${String(i + 1).padStart(6, '0')}`;
    if (!SN_PATTERN.test(sn)) throw new Error(`"${sn}" is not a valid SN: the prefix must be upper-case letters, digits and dashes`);
    const place = places[i % places.length]!;
    const model = simModels[Math.floor(rng() * simModels.length)]!;
    const garden = new Garden(place.lat + between(rng, -0.06, 0.06), place.lng + between(rng, -0.09, 0.09), rng);
    return { sn, model, firmware: pick(rng, model.firmware), region: place.region, city: place.city, garden, rng: createRng(seed * 7919 + i) };
  });
}

/**
 * Starts N simulated mowers against a platform: registers them through the admin API when asked,
 * connects them at `connectRate`, and drives every mower from one shared ticker (one timer for the
 * whole fleet, so thousands of mowers cost little).
 */
export async function startFleet(opts: FleetOptions): Promise<Fleet> {
  const prefix = opts.snPrefix ?? 'SIM';
  const log = opts.log ?? (() => {});
  const plan = planFleet(opts.count, prefix, opts.seed ?? 1);

  let secrets = opts.devices;
  const pairing = new SecretsStore(opts.secretsFile ? opts.secretsFile.replace(/(\.json)?$/, '-pairing.json') : undefined);
  if (!secrets) {
    if (!opts.apiUrl) throw new Error('give either `devices` or `apiUrl` with a token or credentials');
    const api = new ApiClient(opts.apiUrl, opts.token);
    if (!opts.token) {
      if (!opts.credentials) throw new Error('registering the fleet needs a token or credentials');
      await api.signIn(opts.credentials.username, opts.credentials.password);
    }
    const specs: DeviceSpec[] = plan.map((p) => ({ sn: p.sn, model: p.model, region: p.region }));
    secrets = await registerFleet(api, specs, new SecretsStore(opts.secretsFile), prefix, pairing);
    log(`fleet: ${specs.length} mowers registered (${prefix}…)`);
  }

  // The factory pins the platform's update-signing key in every mower.
  const otaKey = opts.otaPublicKeyPem ?? (opts.apiUrl ? await otaPublicKey(opts.apiUrl) : undefined);

  const mowers = plan.map((p) => {
    const secret = secrets.get(p.sn);
    if (!secret) throw new Error(`no secret for ${p.sn}`);
    const mower = new Mower({
      sn: p.sn,
      secret,
      mqttUrl: opts.mqttUrl,
      model: p.model.code,
      modelName: p.model.name,
      firmware: p.firmware,
      garden: p.garden,
      rng: p.rng,
      timeScale: opts.timeScale,
      faultsPerHour: opts.faultsPerHour,
      rainPerHour: opts.rainPerHour,
      keepaliveS: opts.keepaliveS,
      backoffBaseMs: opts.backoffBaseMs,
      telemetryIntervalMs: opts.telemetryIntervalMs,
    });
    mower.log(`garden ${p.garden.width}×${p.garden.depth} m near ${p.city}`);
    const features = opts.extensions ?? ((m: Mower) => [shellFeature(m), ...(otaKey ? [otaFeature(m, otaKey)] : []), taskFeature(m, p.garden, p.rng)]);
    for (const ext of features(mower)) mower.use(ext);
    return mower;
  });

  let stopped = false;
  const rate = Math.max(1, opts.connectRate ?? 200);
  const starting: NodeJS.Timeout[] = [];
  mowers.forEach((m, i) => starting.push(setTimeout(() => !stopped && m.start(), Math.floor((i / rate) * 1000))));

  // One timer for the fleet, advancing a tenth of the mowers per beat: every mower is ticked once
  // per tickMs, and a big fleet's reports leave in ten small bursts instead of one large one.
  // A mower reports at most once per tick, so the tick must be shorter than the period it keeps.
  const tickMs = opts.tickMs ?? Math.min(1000, (opts.telemetryIntervalMs ?? 2000) / 2);
  const slices = 10;
  const lastTick = new Array<number>(slices).fill(Date.now());
  let slice = 0;
  const ticker = setInterval(() => {
    const now = Date.now();
    const k = slice;
    slice = (slice + 1) % slices;
    const dt = (now - lastTick[k]!) / 1000;
    lastTick[k] = now;
    // A mower keeps mowing while its connection is down; it just cannot report.
    for (let i = k; i < mowers.length; i += slices) mowers[i]!.tick(dt);
  }, tickMs / slices);

  const connected = () => mowers.reduce((n, m) => n + (m.online() ? 1 : 0), 0);
  log(`fleet: ${mowers.length} mowers connecting to ${opts.mqttUrl}`);

  return {
    mowers,
    pairingCodes: new Map(plan.flatMap((p) => (pairing.get(p.sn) ? [[p.sn, pairing.get(p.sn)!] as const] : []))),
    gardens: plan.map((p) => ({ sn: p.sn, city: p.city, lat: p.garden.lat, lng: p.garden.lng })),
    connected,
    async waitConnected(n = mowers.length, timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs;
      while (connected() < n) {
        if (Date.now() > until) throw new Error(`only ${connected()} of ${n} mowers connected`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      stopped = true;
      starting.forEach(clearTimeout);
      clearInterval(ticker);
      await Promise.all(mowers.map((m) => m.stop()));
    },
  };
}

/** The platform's OTA public key, or undefined when it offers none (then the mowers take no updates). */
async function otaPublicKey(apiUrl: string): Promise<string | undefined> {
  try {
    return (await new ApiClient(apiUrl, undefined).call<{ publicKeyPem: string }>('GET', '/api/ota/public-key')).publicKeyPem;
  } catch {
    return undefined;
  }
}
