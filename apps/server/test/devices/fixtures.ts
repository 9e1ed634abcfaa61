import { randomBytes } from 'node:crypto';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { deviceTopic, deviceTopics, PROTOCOL_VERSION, type Telemetry } from '@mowerline/contract';
import type { Config } from '../../src/config.ts';
import type { Database } from '../../src/db/client.ts';
import { startServer, type TestServer } from '../harness.ts';

/** Set by CI to the machine's Mosquitto: the server then runs in external-broker mode. */
export const EXTERNAL_MQTT = process.env.TEST_MQTT_URL;
export const EN = 'en-US';

/** The shared secret device servers of the tests give their external-broker endpoints (DEVICE_AUTH_SECRET). */
export const TEST_DEVICE_AUTH_SECRET = 'test-broker-secret-0123456789';
/** Headers of a call to `/api/device-auth/…` as the broker makes it. */
export const brokerAuthHeaders = { 'x-device-auth-secret': TEST_DEVICE_AUTH_SECRET } as const;

/**
 * A server whose gateway uses the embedded broker, or Mosquitto when TEST_MQTT_URL is set. Each
 * server joins its own share group, so parallel suites sharing one Mosquitto never split each
 * other's messages (foreign SNs are simply unknown to this server's database).
 */
export function startDeviceServer(opts: { config?: Partial<Config>; database?: Database; keepDatabase?: boolean } = {}): Promise<TestServer> {
  const mqttConfig: Partial<Config> = EXTERNAL_MQTT ? { mqttUrl: EXTERNAL_MQTT, mqttShareGroup: `test-${randomBytes(4).toString('hex')}` } : {};
  // TEST_DEVICE_ACK_AFTER_WRITE=true runs the device suites with acknowledge-after-write.
  const ackConfig: Partial<Config> = process.env.TEST_DEVICE_ACK_AFTER_WRITE === 'true' ? { deviceAckAfterWrite: true } : {};
  return startServer({ ...opts, config: { telemetryFlushMs: 50, deviceAuthSecret: TEST_DEVICE_AUTH_SECRET, ...mqttConfig, ...ackConfig, ...opts.config } });
}

/** Where a device connects: the embedded broker's TCP port, or the external broker. */
export function brokerUrl(server: TestServer): string {
  const endpoints = server.ctx.gateway.endpoints();
  return endpoints.externalUrl ?? `mqtt://127.0.0.1:${endpoints.tcpPort}`;
}

/** For tests that send far more than a mower does: per-device ingest limits out of the way. */
export const NO_DEVICE_LIMITS: Partial<Config> = { deviceLimits: { telemetryRate: 10_000, telemetryBurst: 100_000, eventsPerHour: 100_000 } };

const usedSns = new Set<string>();

export function uniqueSn(prefix = 'T'): string {
  const sn = `${prefix}${randomBytes(5).toString('hex').toUpperCase()}`;
  usedSns.add(sn);
  return sn;
}

/**
 * Removes the retained presence these tests left on a shared external broker (Mosquitto keeps
 * retained messages across restarts). Nothing to do with the embedded broker, which dies with
 * the server.
 */
export async function clearRetained(sns: Iterable<string> = usedSns): Promise<void> {
  if (!EXTERNAL_MQTT) return;
  const client = await mqtt.connectAsync(EXTERNAL_MQTT, { reconnectPeriod: 0 });
  for (const sn of sns) await client.publishAsync(deviceTopic(sn, deviceTopics.status), '', { qos: 1, retain: true });
  await client.endAsync();
}

export async function createModel(server: TestServer, token: string, code = `M${randomBytes(3).toString('hex').toUpperCase()}`): Promise<number> {
  const res = await server.api<{ id: number }>('POST', '/api/admin/product/model', { token, body: { code, name: `Model ${code}` } });
  if (res.body.code !== 0) throw new Error(JSON.stringify(res.body));
  return res.body.data.id;
}

export async function registerSn(server: TestServer, token: string, sn: string, modelId: number, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await server.api<{ secret: string }>('POST', '/api/admin/product/sn', { token, body: { sn, modelId, ...extra } });
  if (res.body.code !== 0) throw new Error(JSON.stringify(res.body));
  return res.body.data.secret;
}

export interface TestDevice {
  sn: string;
  client: MqttClient;
  conn: string;
  publish(suffix: string, payload: unknown, opts?: { retain?: boolean }): Promise<void>;
  telemetry(overrides?: Partial<Telemetry>): Promise<void>;
  end(): Promise<void>;
}

/** A device as the protocol wants it: client id = username = SN, a last will, `online` on connect. */
export async function connectDevice(
  server: TestServer,
  sn: string,
  secret: string,
  { announce, url, ...opts }: Partial<IClientOptions> & { announce?: boolean; url?: string } = {},
): Promise<TestDevice> {
  const conn = randomBytes(6).toString('hex');
  const client = await mqtt.connectAsync(url ?? brokerUrl(server), {
    clientId: sn,
    username: sn,
    password: secret,
    clean: true,
    reconnectPeriod: 0,
    connectTimeout: 5000,
    will: { topic: deviceTopic(sn, deviceTopics.status), payload: Buffer.from(JSON.stringify({ v: 1, online: false, conn })), qos: 1, retain: true },
    ...opts,
  });
  const publish = async (suffix: string, payload: unknown, o: { retain?: boolean } = {}) => {
    await client.publishAsync(deviceTopic(sn, suffix), typeof payload === 'string' ? payload : JSON.stringify(payload), { qos: 1, retain: o.retain ?? false });
  };
  if (announce !== false) await publish(deviceTopics.status, { v: PROTOCOL_VERSION, online: true, conn, ts: Date.now() }, { retain: true });
  return {
    sn,
    client,
    conn,
    publish,
    telemetry: (overrides = {}) => publish(deviceTopics.telemetry, telemetryPayload(overrides)),
    async end() {
      await publish(deviceTopics.status, { v: PROTOCOL_VERSION, online: false, conn }, { retain: true }).catch(() => {});
      // Leave no retained presence behind on a shared broker.
      await publish(deviceTopics.status, '', { retain: true }).catch(() => {});
      await client.endAsync();
    },
  };
}

export function telemetryPayload(overrides: Partial<Telemetry> = {}): Telemetry {
  return {
    v: PROTOCOL_VERSION,
    ts: Date.now(),
    state: 'mowing',
    activity: 'mowing',
    errorCode: null,
    battery: 80,
    position: { lat: 59.3293, lng: 18.0686, heading: 90 },
    bladeRpm: 3000,
    rssi: -60,
    firmware: '1.2.3',
    ...overrides,
  };
}

/** Polls until `check` returns a truthy value (or throws after `timeoutMs`). */
export async function waitFor<T>(check: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Connect attempts that must fail: resolves with the CONNACK error code. */
export async function refusedConnect(server: TestServer, opts: IClientOptions): Promise<number | undefined> {
  try {
    const client = await mqtt.connectAsync(brokerUrl(server), { reconnectPeriod: 0, connectTimeout: 5000, ...opts });
    await client.endAsync();
    return undefined;
  } catch (err) {
    return (err as { code?: number }).code;
  }
}

/**
 * A device that connects with a short keep-alive and then goes silent without closing its socket
 * (a mower whose network drops): a raw MQTT 3.1.1 client, so nothing answers pings behind our back.
 */
export async function silentDevice(server: TestServer, sn: string, secret: string, conn: string, keepaliveS: number): Promise<{ destroy(): void }> {
  const { connect } = await import('node:net');
  const url = new URL(brokerUrl(server));
  const socket = connect(Number(url.port || 1883), url.hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const str = (s: string | Buffer) => {
    const b = typeof s === 'string' ? Buffer.from(s) : s;
    const len = Buffer.alloc(2);
    len.writeUInt16BE(b.length);
    return Buffer.concat([len, b]);
  };
  const packet = (type: number, body: Buffer) => {
    const lengthBytes: number[] = [];
    let n = body.length;
    do {
      let byte = n % 128;
      n = Math.floor(n / 128);
      if (n > 0) byte |= 0x80;
      lengthBytes.push(byte);
    } while (n > 0);
    return Buffer.concat([Buffer.from([type, ...lengthBytes]), body]);
  };
  const statusTopic = deviceTopic(sn, deviceTopics.status);
  const will = JSON.stringify({ v: 1, online: false, conn });
  const keepalive = Buffer.alloc(2);
  keepalive.writeUInt16BE(keepaliveS);
  // Flags: user name, password, will retain, will QoS 1, will, clean session.
  const variable = Buffer.concat([str('MQTT'), Buffer.from([4, 0x80 | 0x40 | 0x20 | 0x08 | 0x04 | 0x02]), keepalive]);
  socket.write(packet(0x10, Buffer.concat([variable, str(sn), str(statusTopic), str(will), str(sn), str(secret)])));
  const connack = await new Promise<Buffer>((resolve) => socket.once('data', resolve));
  if (connack[0] !== 0x20 || connack[3] !== 0) throw new Error(`connect refused: ${connack.toString('hex')}`);
  // Retained QoS 0 publish of `online`.
  socket.write(packet(0x31, Buffer.concat([str(statusTopic), Buffer.from(JSON.stringify({ v: 1, online: true, conn }))])));
  return { destroy: () => socket.destroy() };
}

export const OPERATOR_PASSWORD = 'Gr4ss#Cutter9';

/** An operator (role user) account, signed in. */
export async function operatorToken(server: TestServer, adminToken: string, username = `op${randomBytes(3).toString('hex')}`): Promise<string> {
  const res = await server.api('POST', '/api/admin/user', {
    token: adminToken,
    body: { username, name: 'Operator', email: `${username}@mowerline.test`, role: 'user', password: OPERATOR_PASSWORD },
  });
  if (res.body.code !== 0) throw new Error(JSON.stringify(res.body));
  return server.login(username, OPERATOR_PASSWORD);
}
