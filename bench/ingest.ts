/**
 * Device ingest: N simulated mowers (one process, this one) publish telemetry at a set total rate;
 * we measure what the platform persists (latest state + history) against the broker alone
 * delivering the same messages to a subscriber that only counts them, side by side in one run.
 *
 *   BENCH_INGEST_SIZES=1000,10000  fleet sizes
 *   BENCH_INGEST_RATE=10000        offered telemetry messages per second (whole fleet)
 *   BENCH_WINDOW_S=30              measured seconds (after BENCH_WARMUP_S=10)
 *   BENCH_INGEST_SETUPS=embedded,external
 *   BENCH_PROFILE=0                no CPU profile of the server's main thread over the measured window of the largest runs (on by default)
 *   BENCH_PROFILE_DIR=/tmp/prof    keep those profiles there (for a call-tree view), one subfolder per run
 *   BENCH_INGEST_RATES=10000,15000,20000
 *                                  saturation sweep instead: the platform alone with the largest fleet at each
 *                                  offered rate in turn, until it persists less than 0.95× what is offered
 *   BENCH_INGEST_PIN=1             simulator (this process) on CPU 0, the server process (all its threads) on CPU 1
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { deviceTopic, deviceTopics, PROTOCOL_VERSION, type Telemetry } from '@mowerline/contract';
import { startFleet, type Fleet, type Mower } from '../apps/fleet-sim/src/index.ts';
import { ApiClient } from '../apps/fleet-sim/src/api-client.ts';
import { registerFleet } from '../apps/fleet-sim/src/registration.ts';
import { SecretsStore } from '../apps/fleet-sim/src/secrets-store.ts';
import { planFleet } from '../apps/fleet-sim/src/fleet.ts';
import { ADMIN } from '../apps/server/test/harness.ts';
import { findProfile, summarizeProfile } from './lib/cpu-profile.ts';
import { freshDatabase } from './lib/pg.ts';
import { cpuSeconds, cpuSecondsBetween, cpuSecondsByPid, cpuSecondsOf } from './lib/proc.ts';
import { startBrokerProcess, startServerProcess, type ChildProcessHandle, type Usage } from './lib/server-process.ts';
import { log, mib, ms, num, percentile, ratio, sleep, table, main, type BenchResult } from './lib/stats.ts';
import type { Config } from '../apps/server/src/config.ts';

const SIZES = (process.env.BENCH_INGEST_SIZES ?? '1000,10000').split(',').map(Number);
const RATE = Number(process.env.BENCH_INGEST_RATE ?? 10_000);
const WINDOW_S = Number(process.env.BENCH_WINDOW_S ?? 30);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 10);
const SETUPS = (process.env.BENCH_INGEST_SETUPS ?? 'embedded,external').split(',');
const PROFILE = process.env.BENCH_PROFILE !== '0';
const KEEP_PROFILES = process.env.BENCH_PROFILE_DIR;
const SWEEP = (process.env.BENCH_INGEST_RATES ?? '').split(',').filter(Boolean).map(Number).sort((a, b) => a - b);
const PIN = process.env.BENCH_INGEST_PIN === '1';
/** Below this share of the offered load persisted, the platform is saturated. */
const HOLDS = 0.95;
/** The machine's Mosquitto (anonymous, no auth plug-in: fine for a benchmark, see docs/device-protocol.md). */
const MOSQUITTO_URL = process.env.BENCH_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const PREFIX = 'BENCH';

interface Window {
  seconds: number;
  /** Telemetry the fleet had acknowledged by the broker (PUBACK), per second. */
  offered: number;
  /** Telemetry that reached the server's (or the baseline's) subscriber, per second. */
  delivered: number;
  /** Telemetry written to the database (history + latest state), per second; baseline: = delivered. */
  persisted: number;
  /** CPU cores used during the window, per process. */
  cpu: { server: number; serverMain: number; fleet: number; broker: number; postgres: number };
  rss: number;
  pending: number;
}

interface Latency {
  /** Publish → visible through the API, ms. */
  samples: number[];
  /** Publish → received by the server (its `lastSeenAt`), ms. */
  received: number[];
  lost: number;
}

const late = (v: number) => (Number.isFinite(v) ? ms(v) : '> 10 s');
const sentBy = (fleet: Fleet) => fleet.mowers.reduce((n, m) => n + m.telemetrySent, 0);

/** Counters and CPU clocks at one instant, so a window is the difference of two snapshots. */
async function snapshot(fleet: Fleet, target: ChildProcessHandle, external: boolean) {
  const usage: Usage = await target.usage();
  return {
    at: performance.now(),
    sent: sentBy(fleet),
    usage,
    fleetCpu: process.cpuUsage(),
    // The server's main thread (broker, API, ingest); the rest is PGlite's thread (embedded), GC and libuv.
    serverMain: cpuSeconds(target.pid, target.pid),
    mosquitto: external ? cpuSecondsOf('mosquitto') : 0,
    postgres: cpuSecondsByPid('postgres'),
  };
}

function windowOf(a: Awaited<ReturnType<typeof snapshot>>, b: typeof a, baseline: boolean): Window {
  const s = (b.at - a.at) / 1000;
  const c = (x: NodeJS.CpuUsage, y: NodeJS.CpuUsage) => (y.user + y.system - x.user - x.system) / 1e6 / s;
  const d = (name: string) => ((b.usage.counters[name] ?? 0) - (a.usage.counters[name] ?? 0)) / s;
  const delivered = d('received.telemetry');
  return {
    seconds: s,
    offered: (b.sent - a.sent) / s,
    delivered,
    persisted: baseline ? delivered : d('written.telemetry'),
    cpu: { server: c(a.usage.cpu, b.usage.cpu), serverMain: (b.serverMain - a.serverMain) / s, fleet: c(a.fleetCpu, b.fleetCpu), broker: (b.mosquitto - a.mosquitto) / s, postgres: cpuSecondsBetween(a.postgres, b.postgres) / s },
    rss: b.usage.rss,
    pending: b.usage.pending,
  };
}

/**
 * Publish → visible through the API: every 500 ms a probe mower reports with ts = now, and the
 * device detail is polled every 50 ms until its `telemetryAt` reaches ts (resolution ±25 ms).
 * Probes overlap, so a slow pipeline still yields a sample every 500 ms. Messages of one device
 * travel in order, so a newer visible report means this one was written too. `lastSeenAt` is the
 * server's receive time, which splits each sample into broker → server and server → visible.
 */
async function probeLatency(probes: Mower[], apiUrl: string, token: string, untilMs: number): Promise<Latency> {
  const result: Latency = { samples: [], received: [], lost: 0 };
  const one = async (mower: Mower) => {
    const t = mower.telemetry();
    const ts = Date.now();
    const payload: Telemetry = { v: PROTOCOL_VERSION, ts, state: t.state as Telemetry['state'], activity: t.activity as Telemetry['activity'], errorCode: t.errorCode, battery: t.battery, position: t.position, bladeRpm: t.bladeRpm, rssi: t.rssi, firmware: t.firmware };
    // Counted with the fleet's own reports, so "offered" includes the probes' few messages too.
    void mower.publish(deviceTopics.telemetry, payload).then((sent) => sent && mower.telemetrySent++, () => {});
    for (;;) {
      await sleep(50);
      const res = await fetch(`${apiUrl}/api/admin/device/${mower.sn}`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await res.json()) as { data?: { telemetryAt: string | null; lastSeenAt: string | null } };
      const at = body.data?.telemetryAt ? Date.parse(body.data.telemetryAt) : 0;
      if (at === ts) result.received.push(Date.parse(body.data!.lastSeenAt!) - ts);
      if (at >= ts) return result.samples.push(Date.now() - ts);
      if (Date.now() - ts > 10_000) {
        // Counted as never: it still weighs in the percentiles.
        result.samples.push(Number.POSITIVE_INFINITY);
        return result.lost++;
      }
    }
  };
  const running: Array<Promise<unknown>> = [];
  for (let i = 0; Date.now() < untilMs; i++) {
    running.push(one(probes[i % probes.length]!));
    await sleep(500);
  }
  await Promise.all(running);
  return result;
}

/** Clears the retained presence the fleet left in Mosquitto's persistent store. */
async function clearRetained(url: string, sns: string[]) {
  const client = await mqtt.connectAsync(url, { clientId: `mowerline-bench-clean-${process.pid}`, clean: true });
  for (const sn of sns) client.publish(deviceTopic(sn, deviceTopics.status), '', { qos: 0, retain: true });
  await client.endAsync();
}

/** A clean stop waits for PUBACKs; behind an overloaded broker that can take minutes, so bound it. */
async function stopFleet(fleet: Fleet) {
  await Promise.race([fleet.stop(), sleep(15_000)]);
}

async function login(apiUrl: string): Promise<string> {
  const api = new ApiClient(apiUrl, undefined);
  const data = await api.call<{ access_token: string }>('POST', '/api/admin/user/login', { username: ADMIN.username, password: ADMIN.password });
  return data.access_token;
}

function fleetOptions(count: number, rate: number) {
  return {
    count,
    snPrefix: PREFIX,
    telemetryIntervalMs: (count / rate) * 1000,
    // Only telemetry: no faults or rain, no shell/OTA agents.
    faultsPerHour: 0,
    rainPerHour: 0,
    extensions: () => [],
    connectRate: 1000,
    keepaliveS: 60,
  };
}

/** Connect, warm up, measure one window. */
async function measure(fleet: Fleet, target: ChildProcessHandle, external: boolean, baseline: boolean, probe?: { apiUrl: string; token: string }, profileDir?: string) {
  // An overloaded server also accepts connections slowly; measure with whoever got in within a minute.
  await fleet.waitConnected(fleet.mowers.length, 60_000).catch(() => {});
  await sleep(WARMUP_S * 1000);
  // The window only: a whole-run profile is mostly registration and the connect storm.
  if (profileDir) await target.startProfile();
  const a = await snapshot(fleet, target, external);
  const probes = fleet.mowers.filter((_, i) => i % Math.ceil(fleet.mowers.length / 8) === 0);
  const latency = probe ? probeLatency(probes, probe.apiUrl, probe.token, Date.now() + WINDOW_S * 1000) : sleep(WINDOW_S * 1000).then(() => undefined);
  const lat = await latency;
  const b = await snapshot(fleet, target, external);
  if (profileDir) await target.stopProfile(path.join(profileDir, 'window.cpuprofile'));
  return { window: windowOf(a, b, baseline), latency: lat, connected: fleet.connected() };
}

/**
 * The simulator and the server on a core each (taskset), so neither takes CPU from the other;
 * Mosquitto and PostgreSQL stay where the kernel puts them. `-a`: every thread (PGlite's worker too).
 */
function pin(pid: number, cpu: number) {
  if (PIN) execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
}

const cpuSharing = () =>
  PIN
    ? 'CPU sharing: simulator and probes (the benchmark process) pinned to CPU 0, the server process with all its threads to CPU 1 (`taskset`); Mosquitto and PostgreSQL unpinned.'
    : 'CPU sharing: none pinned; the simulator (the benchmark process), the server, Mosquitto and PostgreSQL share both cores as the kernel schedules them.';

/** CPU milliseconds per 1,000 messages, from cores (CPU-seconds per second) and messages per second. */
const perThousand = (cores: number, perSecond: number) => (perSecond > 0 ? (cores / perSecond) * 1e6 : Number.NaN);

async function baselineRun(count: number, external: boolean) {
  const broker = await startBrokerProcess(external ? MOSQUITTO_URL : undefined);
  pin(broker.pid, 1);
  const devices = new Map(planFleet(count, PREFIX, 1).map((p) => [p.sn, 'x'.repeat(43)]));
  const fleet = await startFleet({ ...fleetOptions(count, RATE), mqttUrl: broker.mqttUrl, devices });
  try {
    return (await measure(fleet, broker, external, true)).window;
  } finally {
    await stopFleet(fleet);
    await broker.stop();
    if (external) await clearRetained(MOSQUITTO_URL, [...devices.keys()]);
  }
}

/**
 * The per-device ingest limits stay at the server's defaults (DEVICE_TELEMETRY_RATE, 5/s) while
 * each mower sends within them (10,000 mowers at 10,000 msg/s: 1/s each), so the A/B measures the
 * limits' cost; a smaller fleet at the same total rate sends faster per mower than a mower does,
 * and gets room for it (twice its rate), or the bench would measure the limits dropping messages.
 */
function limitsFor(count: number, rate: number): Partial<Config> {
  const perMower = rate / count;
  if (perMower <= 5) return {};
  return { deviceLimits: { telemetryRate: 2 * perMower, telemetryBurst: Math.max(20, Math.ceil(4 * perMower)), eventsPerHour: 30 } };
}

async function platformRun(count: number, external: boolean, profileDir?: string, rate = RATE) {
  const db = external ? await freshDatabase('ingest') : undefined;
  const dataDir = external ? undefined : mkdtempSync(path.join(tmpdir(), 'mowerline-bench-'));
  const server = await startServerProcess({ databaseUrl: db?.url, dataDir, config: { ...(external ? { mqttUrl: MOSQUITTO_URL } : {}), ...limitsFor(count, rate) } });
  pin(server.pid, 1);
  let fleet: Fleet | undefined;
  try {
    const token = await login(server.url);
    const plan = planFleet(count, PREFIX, 1);
    const secrets = await registerFleet(new ApiClient(server.url, token), plan.map((p) => ({ sn: p.sn, model: p.model, region: p.region })), new SecretsStore(), PREFIX);
    const before = await server.usage();
    fleet = await startFleet({ ...fleetOptions(count, rate), mqttUrl: server.mqttUrl, devices: secrets });
    const { window, latency, connected } = await measure(fleet, server, external, false, { apiUrl: server.url, token }, profileDir);
    return { window, latency: latency!, connected, rssPerDevice: (window.rss - before.rss) / count, rssBefore: before.rss };
  } finally {
    if (fleet) await stopFleet(fleet);
    await server.stop();
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (external) await clearRetained(MOSQUITTO_URL, planFleet(count, PREFIX, 1).map((p) => p.sn));
  }
}

export async function run(): Promise<BenchResult> {
  // The simulator runs in this process: on CPU 0 (its children, the brokers and servers, go to CPU 1).
  pin(process.pid, 0);
  return SWEEP.length > 0 ? saturationRun() : fixedRateRun();
}

async function fixedRateRun(): Promise<BenchResult> {
  const rows: Array<Array<string | number>> = [];
  const cpuRows: Array<Array<string | number>> = [];
  const costRows: Array<Array<string | number>> = [];
  const headline: BenchResult['headline'] = [];
  const profiles: string[] = [];
  for (const setup of SETUPS) {
    const external = setup === 'external';
    const label = external ? 'Mosquitto + PostgreSQL' : 'embedded aedes + PGlite';
    for (const count of SIZES) {
      log(`ingest: ${label}, ${count} mowers, broker alone`);
      const base = await baselineRun(count, external);
      log(`ingest: ${label}, ${count} mowers, platform`);
      const profileDir = PROFILE && count === Math.max(...SIZES) ? mkdtempSync(path.join(KEEP_PROFILES ?? tmpdir(), `mowerline-prof-${setup}-`)) : undefined;
      const p = await platformRun(count, external, profileDir);
      const w = p.window;
      const p50 = percentile(p.latency.samples, 50);
      const p99 = percentile(p.latency.samples, 99);
      rows.push([
        label,
        p.connected < count ? `${num(count, 0)} (${num(p.connected, 0)} connected)` : num(count, 0),
        num(w.offered, 0),
        num(base.delivered, 0),
        num(w.persisted, 0),
        ratio(w.persisted, base.delivered),
        `${late(p50)} / ${late(p99)} (n=${p.latency.samples.length}${p.latency.lost ? `, ${p.latency.lost} > 10 s` : ''})`,
        `${late(percentile(p.latency.received, 50))} / ${late(percentile(p.latency.received, 99))}`,
        `${num(p.rssPerDevice / 1024, 1)} KiB (${mib(p.rssBefore)} → ${mib(w.rss)})`,
        num(w.pending, 0),
      ]);
      cpuRows.push([label, num(count, 0), `${num(w.cpu.server, 2)} (${num(w.cpu.serverMain, 2)} / ${num(w.cpu.server - w.cpu.serverMain, 2)})`, num(w.cpu.fleet, 2), external ? num(w.cpu.broker, 2) : 'in server', num(w.cpu.postgres, 2), `${num(base.cpu.server, 2)} + ${external ? num(base.cpu.broker, 2) : '–'}`]);
      // Per message, so the figure holds from machine to machine where rates do not. The broker
      // alone: Mosquitto's own CPU (external), or the aedes process with its counting subscriber.
      const cost = messageCost(w, base, external);
      costRows.push([
        label,
        num(count, 0),
        num(cost.server, 1),
        external ? num(cost.broker, 1) : 'in server',
        external ? num(cost.postgres, 1) : 'in server',
        num(cost.brokerAlone, 1),
        ratio(cost.server, cost.brokerAlone),
      ]);
      if (count === Math.max(...SIZES)) {
        headline.push({ what: `ingest persisted msg/s, ${num(count, 0)} mowers, ${label}`, value: num(w.persisted, 0), target: '≥ 10,000', met: w.persisted >= 10_000 });
        headline.push({ what: `ingest ÷ broker alone, ${label}`, value: ratio(w.persisted, base.delivered), target: '≥ 0.5×', met: w.persisted / base.delivered >= 0.5 });
        headline.push({ what: `p99 publish → visible in API, ${label}`, value: late(p99), target: '< 1,000 ms', met: p99 < 1000 });
        headline.push({
          what: `server CPU per 1,000 persisted ÷ broker alone per 1,000 delivered, ${num(count, 0)} mowers, ${label}`,
          value: `${ratio(cost.server, cost.brokerAlone)} (${num(cost.server, 1)} / ${num(cost.brokerAlone, 1)} CPU-ms)`,
          target: 'platform ÷ broker per message ≤ 2×',
          met: cost.server / cost.brokerAlone <= 2,
        });
      }
      if (profileDir) {
        const file = findProfile(profileDir);
        if (file) profiles.push(profileSection(`${label}, ${num(count, 0)} mowers`, file));
        if (!KEEP_PROFILES) rmSync(profileDir, { recursive: true, force: true });
      }
    }
  }
  const markdown = [
    `Offered load: ${num(RATE, 0)} telemetry messages/s in total (each mower every N/${num(RATE, 0)} s), QoS 1, server defaults (flush every 250 ms or 500 messages). ` +
      `Measured over ${WINDOW_S} s after all mowers connected and ${WARMUP_S} s of warm-up. "Broker alone" is the same fleet and rate against the same broker with a subscriber that only counts. ${cpuSharing()}`,
    '',
    table(['setup', 'mowers', 'offered msg/s', 'broker alone msg/s', 'persisted msg/s', 'ratio', 'publish → API p50 / p99', 'of which publish → server receive p50 / p99', 'server RSS per device', 'backlog at end'], rows),
    '',
    'CPU in cores (1.0 = one core fully busy; the machine has 2). "postgres" sums every PostgreSQL process on the machine (other databases\' work included on a shared machine).',
    '',
    table(['setup', 'mowers', 'server (main thread / other threads: PGlite, GC, libuv)', 'fleet sim + probes', 'mosquitto', 'postgres', 'broker alone: broker/subscriber + mosquitto'], cpuRows),
    '',
    'CPU per message: CPU-milliseconds per 1,000 persisted messages (platform) and per 1,000 delivered (broker alone: Mosquitto itself, or the aedes process with its counting subscriber). The ratio is server ÷ broker alone (target ≤ 2×); on PostgreSQL the database costs come on top.',
    '',
    table(['setup', 'mowers', 'server', 'mosquitto (platform run)', 'postgres', 'broker alone', 'server ÷ broker alone'], costRows),
    ...profiles,
  ].join('\n');
  return { name: 'Device ingest', markdown, headline };
}

function messageCost(w: Window, base: Window, external: boolean) {
  return {
    server: perThousand(w.cpu.server, w.persisted),
    broker: perThousand(w.cpu.broker, w.persisted),
    postgres: perThousand(w.cpu.postgres, w.persisted),
    brokerAlone: external ? perThousand(base.cpu.broker, base.delivered) : perThousand(base.cpu.server, base.delivered),
  };
}

/**
 * Raises the offered rate step by step (BENCH_INGEST_RATES) with the largest fleet until the
 * platform persists less than HOLDS of what the fleet offers, and reports the last rate that held.
 * A step whose fleet cannot even offer 0.95× of the asked rate ends the sweep too: then the
 * simulator, not the server, is the limit, and the table says so.
 */
async function saturationRun(): Promise<BenchResult> {
  const count = Math.max(...SIZES);
  const rows: Array<Array<string | number>> = [];
  const headline: BenchResult['headline'] = [];
  for (const setup of SETUPS) {
    const external = setup === 'external';
    const label = external ? 'Mosquitto + PostgreSQL' : 'embedded aedes + PGlite';
    let held: number | undefined;
    let end = 'every rate held';
    for (const rate of SWEEP) {
      log(`ingest saturation: ${label}, ${count} mowers, ${rate} msg/s asked`);
      const { window: w, latency } = await platformRun(count, external, undefined, rate);
      const share = w.persisted / w.offered;
      const simLimited = w.offered < HOLDS * rate;
      rows.push([
        label,
        num(rate, 0),
        num(w.offered, 0),
        num(w.persisted, 0),
        ratio(w.persisted, w.offered),
        `${late(percentile(latency.samples, 50))} / ${late(percentile(latency.samples, 99))}`,
        `${num(w.cpu.server, 2)} (main ${num(w.cpu.serverMain, 2)}) / ${num(w.cpu.fleet, 2)} / ${external ? num(w.cpu.broker, 2) : '–'} / ${num(w.cpu.postgres, 2)}`,
        num(perThousand(w.cpu.server, w.persisted), 1),
        num(w.pending, 0),
        `${num(os.loadavg()[0]!, 2)}`,
      ]);
      if (share < HOLDS) {
        end = `persisted ${ratio(w.persisted, w.offered)} of offered at ${num(rate, 0)} msg/s asked`;
        break;
      }
      // A starved simulator can offer less at a higher asked rate: the most that held counts.
      held = Math.max(held ?? 0, w.offered);
      if (simLimited) {
        end = `the simulator offered only ${num(w.offered, 0)} of ${num(rate, 0)} msg/s asked: the simulator, not the platform, stopped the sweep`;
        break;
      }
    }
    headline.push({ what: `ingest saturation (persisted ≥ ${HOLDS}× offered), ${num(count, 0)} mowers, ${label}`, value: held === undefined ? 'below the first rate' : `${num(held, 0)} msg/s offered held (${end})`, target: 'reported', met: null });
  }
  const markdown = [
    `Saturation sweep: ${num(count, 0)} mowers, the offered rate raised through ${SWEEP.map((r) => num(r, 0)).join(', ')} msg/s until less than ${HOLDS}× of what the fleet offers is persisted; ` +
      `platform only (no broker-alone runs), ${WINDOW_S} s measured after ${WARMUP_S} s of warm-up per step. ${cpuSharing()}`,
    '',
    table(['setup', 'asked msg/s', 'offered msg/s', 'persisted msg/s', 'persisted ÷ offered', 'publish → API p50 / p99', 'CPU cores: server / sim / mosquitto / postgres', 'server CPU-ms per 1,000 persisted', 'backlog at end', 'load (1 min)'], rows),
    '',
    ...headline.map((h) => `- ${h.what}: ${h.value}`),
  ].join('\n');
  return { name: 'Device ingest saturation', markdown, headline };
}

function profileSection(title: string, file: string): string {
  const s = summarizeProfile(file);
  return [
    '',
    `CPU profile of the server's main thread (${title}; the measured window only). Idle ${num(s.idlePercent, 0)} % of samples; self time in % of busy samples:`,
    '',
    table(['where (package / file)', '% busy'], s.packages.slice(0, 8).map((p) => [p.name, num(p.percentOfBusy, 1)])),
    '',
    table(['top frames (self time)', '% busy'], s.frames.map((f) => [f.name, num(f.percentOfBusy, 1)])),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) await main(run);
