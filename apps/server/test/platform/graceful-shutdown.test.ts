import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { deviceTopic, deviceTopics, PROTOCOL_VERSION, type EventSubscriberStatus, type GatewayStats } from '@mowerline/contract';
import { openDatabase } from '../../src/db/client.ts';
import { telemetryPayload, waitFor } from '../devices/fixtures.ts';
import { callJson, scratchStore, startServerProcess, type ServerProcess } from '../server-process.ts';

const password = 'Gr4ceful#Stop-26';
const DEVICES = 10;
/** Every fifth message of a device is a fault with a code of its own (each one news: a `device.event.raised` for the bell). */
const EVENT_EVERY = 5;

const setUp = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite';
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** From the server's "stopping" line to its "stopped cleanly" line, by the log's own clock. */
function stopSeconds(output: string): string {
  const at = (msg: string) => Number(new RegExp(`"time":(\\d+)[^\\n]*"msg":"${msg}"`).exec(output)?.[1]);
  return ((at('stopped cleanly') - at('stopping: finishing in-flight requests')) / 1000).toFixed(1);
}

/** Log lines of the process saying it received a request on `urlPath` (LOG_LEVEL debug). */
const arrivals = (proc: ServerProcess, urlPath: string) => proc.output().split(`"path":"${urlPath}","msg":"incoming request"`).length - 1;

/**
 * SIGTERM of the real composition root (`src/main.ts`, its own process) while mowers publish, the
 * bell is delivering their faults and a request is being handled. A graceful stop answers the
 * request, writes every device message it acknowledged, finishes the event deliveries in flight
 * (none left claimed under its lease), and exits 0; a restart delivers what was left pending. The
 * broker is the embedded one: with acknowledge-after-write (the default) its PUBACK means "stored".
 */
describe(`graceful shutdown under load (${setUp}, embedded broker)`, () => {
  const store = scratchStore('sigterm');
  const { dataDir, children } = store;
  afterAll(() => store.cleanup());

  it('answers the request in flight, stores every acknowledged message, leaves no delivery claimed, exits 0', async () => {
    const databaseUrl = await store.databaseUrl();
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      MQTT_URL: '',
      // Each request is logged as it arrives: the signal is sent once the sign-in is being handled.
      LOG_LEVEL: 'debug',
      // Every device sends as fast as it is acknowledged, far above a mower's limits.
      DEVICE_TELEMETRY_RATE: '10000',
      DEVICE_TELEMETRY_BURST: '100000',
      DEVICE_EVENTS_PER_HOUR: '100000',
    };
    const marks: string[] = [];
    const t0 = Date.now();
    const mark = (what: string) => marks.push(`${what} ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const first = await startServerProcess(env, password);
    mark('started');
    children.push(first.child);
    const token = (await callJson<{ access_token: string }>(`${first.url}/api/admin/user/login`, 'POST', { username: 'admin', password })).data.access_token;
    const stats = async () => (await callJson<GatewayStats>(`${first.url}/api/admin/device/gateway-stats`, 'GET', undefined, token)).data;
    const bell = async (url: string, bearer: string) =>
      (await callJson<{ subscribers: EventSubscriberStatus[] }>(`${url}/api/admin/system/event-delivery`, 'GET', undefined, bearer)).data.subscribers.find((s) => s.name === 'bell');

    const model = await callJson<{ id: number }>(`${first.url}/api/admin/product/model`, 'POST', { code: `G${randomBytes(3).toString('hex').toUpperCase()}`, name: 'Graceful' }, token);
    const prefix = `G${randomBytes(3).toString('hex').toUpperCase()}`;
    const devices: Array<{ sn: string; client: MqttClient }> = [];
    for (let i = 0; i < DEVICES; i++) {
      const sn = `${prefix}${String(i).padStart(4, '0')}`;
      const res = await callJson<{ secret: string }>(`${first.url}/api/admin/product/sn`, 'POST', { sn, modelId: model.data.id }, token);
      expect(res.code).toBe(0);
      const client = await mqtt.connectAsync(first.mqttUrl, { clientId: sn, username: sn, password: res.data.secret, clean: true, reconnectPeriod: 0, connectTimeout: 5000 });
      devices.push({ sn, client });
    }

    // Each message names itself once stored: telemetry by its device time, a fault by its code.
    const base = Date.now() - 60_000;
    const ackedTelemetry = new Set<string>();
    const ackedFaults = new Set<string>();
    let stop = false;
    const publishers = devices.map(async ({ sn, client }) => {
      for (let seq = 1; !stop; seq++) {
        try {
          if (seq % EVENT_EVERY === 0) {
            const code = `GRACEFUL_${seq}`;
            const fault = { v: PROTOCOL_VERSION, id: `g-${sn}-${seq}`, ts: base + seq, code, severity: 'critical', message: `${code} happened`, context: {} };
            await client.publishAsync(deviceTopic(sn, deviceTopics.events), JSON.stringify(fault), { qos: 1 });
            ackedFaults.add(`${sn}:${code}`);
          } else {
            await client.publishAsync(deviceTopic(sn, deviceTopics.telemetry), JSON.stringify(telemetryPayload({ ts: base + seq, battery: seq % 101 })), { qos: 1 });
            ackedTelemetry.add(`${sn}:${base + seq}`);
          }
        } catch {
          return;
        }
      }
    });

    mark('devices connected');
    // Under way: batches being written and the bell delivering the faults.
    await waitFor(async () => ((await stats()).counters['written.telemetry'] ?? 0) >= 500, 60_000, 'ingest under way');
    await waitFor(async () => ((await bell(first.url, token))?.delivered ?? 0) >= 10, 60_000, 'the bell delivering');
    mark('under way');

    // A sign-in (argon2id and database writes) is being handled when the signal lands.
    const seen = arrivals(first, '/api/admin/user/login');
    const inFlight = fetch(`${first.url}/api/admin/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password }) }).then(
      async (res) => ({ connection: res.headers.get('connection'), body: (await res.json()) as { code: number; data: { access_token: string } } }),
    );
    await waitFor(() => arrivals(first, '/api/admin/user/login') > seen, 30_000, 'the sign-in to arrive');
    mark('signal');
    const ackedBeforeSignal = ackedTelemetry.size + ackedFaults.size;
    first.child.kill('SIGTERM');
    const [answer, code] = await Promise.all([inFlight, exited(first.child)]);
    mark(`stopped (the server's own stop: ${stopSeconds(first.output())} s)`);
    stop = true;
    for (const d of devices) d.client.end(true);
    await Promise.race([Promise.all(publishers), new Promise((r) => setTimeout(r, 2000))]);

    expect(code).toBe(0);
    expect(first.output()).toContain('stopped cleanly');
    expect(answer.body.code).toBe(0);
    expect(answer.body.data.access_token).toBeTruthy();
    // Its keep-alive connection is closed with the answer: it cannot hold the stop open.
    expect(answer.connection).toBe('close');
    expect(ackedTelemetry.size + ackedFaults.size).toBeGreaterThanOrEqual(ackedBeforeSignal);

    // Read straight from the database the process left behind.
    const database = await openDatabase(databaseUrl ? { url: databaseUrl, dataDir: 'unused', onError: () => {} } : { dataDir });
    let raisedIds: string[];
    try {
      const query = async <T>(q: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(q));
      const telemetry = new Set(
        (await query<{ sn: string; ts: string }>(sql`select sn, (extract(epoch from at) * 1000)::bigint::text as ts from telemetry_history where sn like ${`${prefix}%`}`)).map((r) => `${r.sn}:${r.ts}`),
      );
      const faults = new Set((await query<{ sn: string; code: string }>(sql`select sn, code from device_events where sn like ${`${prefix}%`}`)).map((r) => `${r.sn}:${r.code}`));
      // Acknowledged means stored, for both kinds of message.
      expect([...ackedTelemetry].filter((k) => !telemetry.has(k))).toEqual([]);
      expect([...ackedFaults].filter((k) => !faults.has(k))).toEqual([]);

      // Every stored fault has its event in the outbox (written with it).
      const raised = await query<{ id: string; sn: string; code: string }>(
        sql`select id::text as id, payload->>'sn' as sn, payload->>'code' as code from events where type = 'device.event.raised' and subject like ${`${prefix}%`}`,
      );
      expect(new Set(raised.map((e) => `${e.sn}:${e.code}`))).toEqual(faults);
      raisedIds = raised.map((e) => e.id);

      // The deliveries in flight were finished or handed back: none is left claimed by the stopped node.
      expect(await query(sql`select subscriber, event_id from event_deliveries where locked_by is not null or locked_until is not null`)).toEqual([]);
      // Each fault is either handled by the bell or still pending for it, never both (handled and
      // acknowledged together before the stop), never neither.
      const handled = new Set((await query<{ id: string }>(sql`select event_id::text as id from event_handled where subscriber = 'bell'`)).map((r) => r.id));
      const pending = new Set((await query<{ id: string }>(sql`select event_id::text as id from event_deliveries where subscriber = 'bell'`)).map((r) => r.id));
      expect(raisedIds.filter((id) => handled.has(id) && pending.has(id))).toEqual([]);
      expect(raisedIds.filter((id) => !handled.has(id) && !pending.has(id))).toEqual([]);
      expect(handled.size).toBeGreaterThanOrEqual(10);
      mark(`read back (bell: ${handled.size} handled, ${pending.size} pending)`);
    } finally {
      await database.close();
    }

    // A restart delivers what was left pending; then every fault has reached the bell exactly once.
    const second = await startServerProcess(env, password);
    children.push(second.child);
    mark('restarted');
    const token2 = (await callJson<{ access_token: string }>(`${second.url}/api/admin/user/login`, 'POST', { username: 'admin', password })).data.access_token;
    await waitFor(async () => (await bell(second.url, token2))?.pending === 0, 60_000, 'the bell to catch up after the restart');
    mark('caught up');
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
    const after = await openDatabase(databaseUrl ? { url: databaseUrl, dataDir: 'unused', onError: () => {} } : { dataDir });
    try {
      const handled = new Set(rowsOf<{ id: string }>(await after.db.execute(sql`select event_id::text as id from event_handled where subscriber = 'bell'`)).map((r) => r.id));
      expect(raisedIds.filter((id) => !handled.has(id))).toEqual([]);
      expect(rowsOf(await after.db.execute(sql`select 1 from event_deliveries where locked_by is not null`))).toEqual([]);
    } finally {
      await after.close();
    }
    console.warn(
      `SIGTERM under load (${setUp}): acknowledged ${ackedTelemetry.size} telemetry and ${ackedFaults.size} faults, all stored; ` +
        `${raisedIds.length} fault events, every one delivered to the bell once (${marks.join(', ')})`,
    );
  }, 600_000);
});
