import { createServer, type Server } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { deviceMayPublish, deviceMayRetain, deviceMaySubscribe, MAX_DEVICE_PAYLOAD_BYTES, maxDevicePayloadBytes, parseDeviceTopic, topicMatches } from '@mowerline/contract';
import type { Config } from '../config.ts';
import type { Counters } from './counters.ts';
import type { DeviceCredentials } from './device-credentials.ts';
import { ingestFilters, KICK_TOPIC, kickPayloadSchema } from './topics.ts';
import { LocalBus } from './local-bus.ts';
import { IndexedRetainedPersistence } from './retained-index.ts';
import type { IngestHandler, MessageHandler } from './bus.ts';
import { parseBoundedJson } from './bounded-json.ts';

export interface EmbeddedBroker {
  tcpPort(): number | null;
  tlsPort(): number | null;
  connectedDevices(): number;
  /** Retained messages the broker holds, and their payload bytes (bounded: only `status`, at most 1 KiB each). */
  retained(): { messages: number; bytes: number };
  /** The server's own subscriptions and publishing, inside the broker. */
  bus(opts: { onIngest: IngestHandler; onCommandResponse: MessageHandler }): Promise<LocalBus>;
  /** Hands an upgraded WebSocket (as a stream) to the broker. */
  handle(stream: Duplex, request: IncomingMessage): void;
  /** Stops accepting connections and disconnects every device (their wills fire). */
  disconnectDevices(): Promise<void>;
  close(): Promise<void>;
}

function refusal(code: 4 | 5, message: string): AuthenticateError {
  return Object.assign(new Error(message), { returnCode: code }) as AuthenticateError;
}

/**
 * Largest MQTT packet a device may send: the largest payload of any topic plus room for the topic
 * and the headers. Checked as soon as the packet's length is read, before its body is buffered.
 */
export const MAX_DEVICE_PACKET_BYTES = MAX_DEVICE_PAYLOAD_BYTES + 4096;

interface PacketParser {
  packet: { length: number };
  _parseLength(): boolean;
  _emitError(err: Error): boolean;
}

/**
 * aedes buffers a whole packet (up to MQTT's 256 MiB) before any hook sees it, so a device could
 * make the server hold hundreds of MiB per connection. The packet length is in the fixed header:
 * this refuses an oversized packet there, which closes the connection. mqtt-packet's parser has no
 * option for it, hence the wrapped state function (covered by test/devices/mqtt-abuse.test.ts).
 */
function capPacketSize(client: Client, counters: Counters) {
  const parser = (client as unknown as { _parser: PacketParser })._parser;
  const parseLength = parser._parseLength;
  parser._parseLength = function (this: PacketParser) {
    const done = parseLength.call(this);
    if (done && this.packet.length > MAX_DEVICE_PACKET_BYTES) {
      counters.inc('publish.tooLarge');
      return this._emitError(new Error(`packet of ${this.packet.length} bytes exceeds ${MAX_DEVICE_PACKET_BYTES}`));
    }
    return done;
  };
}

function listen(server: Server, port: number, host: string, what: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') {
        reject(Object.assign(new Error(`${what} port ${port} is already in use: stop what holds it or set ${what === 'MQTT' ? 'MQTT_PORT' : 'MQTT_TLS_PORT'}.`), { code: 'EADDRINUSE', port }));
      } else reject(err);
    });
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

/**
 * The broker `npm start` runs in-process (aedes): MQTT over TCP, over TLS when a certificate is
 * configured, and over WebSocket through the HTTP server. It authenticates devices against the SN
 * registry and enforces the device ACL. Every MQTT client is a device: the server itself
 * subscribes and publishes inside the broker (local-bus.ts).
 */
export async function startEmbeddedBroker(opts: {
  config: Config;
  credentials: DeviceCredentials;
  counters: Counters;
  log: { warn(o: object, m: string): void };
}): Promise<EmbeddedBroker> {
  const { config, credentials, counters } = opts;
  // Acknowledge-after-write: a device's QoS 1 message goes to the ingest before its PUBACK, which
  // aedes writes once authorizePublish calls back (and only then routes the message, see below).
  let ingestBeforeAck: IngestHandler | undefined;
  const ingestedBeforeAck = new WeakSet<object>();

  const persistence = new IndexedRetainedPersistence();
  const broker = await Aedes.createBroker({
    persistence,
    authenticate(client, username, password, done) {
      const secret = password?.toString('utf8') ?? '';
      credentials.check(username ?? '', secret, client.id).then(
        (result) => {
          if (result === 'ok') {
            counters.inc('connect.accepted');
            return done(null, true);
          }
          counters.inc(`connect.refused.${result}`);
          done(result === 'disabled' ? refusal(5, 'device disabled') : refusal(4, 'bad credentials'), false);
        },
        (err: unknown) => {
          opts.log.warn({ err }, 'device authentication failed: database unavailable');
          done(Object.assign(new Error('server unavailable'), { returnCode: 3 }) as AuthenticateError, false);
        },
      );
    },
    authorizePublish(client, packet, callback) {
      if (!client) return callback(null);
      if (!deviceMayPublish(client.id, packet.topic)) {
        counters.inc('publish.denied');
        return callback(new Error('topic not allowed'));
      }
      // Refused before the PUBACK (MQTT 3.1.1 has no negative PUBACK: the connection closes).
      const limit = maxDevicePayloadBytes(parseDeviceTopic(packet.topic)!.suffix);
      if (packet.payload.length > limit) {
        counters.inc('publish.tooLarge');
        return callback(new Error(`payload of ${packet.payload.length} bytes exceeds ${limit} on this topic`));
      }
      // Only presence is retained; the message itself is still delivered.
      if (packet.retain && !deviceMayRetain(packet.topic)) {
        counters.inc('publish.retainRefused');
        packet.retain = false;
      }
      if (ingestBeforeAck && packet.qos === 1 && Buffer.isBuffer(packet.payload) && ingestFilters.some((f) => topicMatches(f, packet.topic))) {
        // aedes handles a connection's packets one read at a time, so the device waits (its next
        // packets with it) while this is written: the PUBACK means "stored". The routed copy
        // (same payload buffer) then skips the ingest (LocalBus). A will comes here too.
        ingestedBeforeAck.add(packet.payload);
        return ingestBeforeAck(packet.topic, packet.payload, () => callback(null));
      }
      callback(null);
    },
    authorizeSubscribe(client, subscription, callback) {
      if (deviceMaySubscribe(client.id, subscription.topic)) return callback(null, subscription);
      counters.inc('subscribe.denied');
      callback(null, null);
    },
  });

  // aedes keeps its client table private; this one holds the connected devices by SN.
  const devicesById = new Map<string, Client>();
  broker.on('client', (client) => devicesById.set(client.id, client));
  broker.on('clientDisconnect', (client) => {
    if (devicesById.get(client.id) === client) devicesById.delete(client.id);
  });

  // Disabling an SN or rotating its secret cuts the live connection: the server asks by publishing here.
  broker.subscribe(
    KICK_TOPIC,
    (packet, done) => {
      const parsed = kickPayloadSchema.safeParse(safeJson(packet.payload));
      if (parsed.success) devicesById.get(parsed.data.sn)?.close();
      done();
    },
    () => {},
  );

  const handle = (stream: Duplex, request?: IncomingMessage) => capPacketSize(broker.handle(stream, request), counters);
  const tcp = createServer((socket) => handle(socket));
  let tcpServer = tcp;
  const tcpPort = await listen(tcp, config.mqttPort, config.mqttHost, 'MQTT').catch((err: NodeJS.ErrnoException) => {
    // With the default port taken (often by a broker already installed on the machine), the
    // platform still starts: on a free port, said loudly. A port the operator chose must be honoured.
    if (err.code !== 'EADDRINUSE' || config.mqttPortExplicit) throw err;
    const fallback = createServer((socket) => handle(socket));
    return listen(fallback, 0, config.mqttHost, 'MQTT').then((port) => {
      opts.log.warn({ port }, `MQTT port ${config.mqttPort} is already in use; the embedded broker listens on ${port} instead (set MQTT_PORT to choose)`);
      tcpServer = fallback;
      return port;
    });
  });
  let tls: Server | undefined;
  let tlsPort: number | null = null;
  if (config.mqttTlsCert && config.mqttTlsKey) {
    tls = createTlsServer({ cert: readFileSync(config.mqttTlsCert), key: readFileSync(config.mqttTlsKey) }, (socket) => handle(socket));
    tlsPort = await listen(tls, config.mqttTlsPort, config.mqttHost, 'MQTT TLS');
  }
  let accepting = true;

  // close() stops accepting at once; its callback waits for the open connections to end.
  const closeServer = (server: Server | undefined) => new Promise<void>((resolve) => (server?.listening ? server.close(() => resolve()) : resolve()));
  let listenersClosed: Promise<unknown> | undefined;

  return {
    tcpPort: () => tcpPort,
    tlsPort: () => tlsPort,
    connectedDevices: () => devicesById.size,
    retained: () => persistence.size(),
    bus: (handlers) => {
      if (config.deviceAckAfterWrite) ingestBeforeAck = handlers.onIngest;
      return LocalBus.create(broker, { ...handlers, ingestedBeforeAck: (payload) => typeof payload !== 'string' && ingestedBeforeAck.has(payload), log: opts.log });
    },
    handle(stream, request) {
      if (accepting) handle(stream, request);
      else stream.destroy();
    },
    async disconnectDevices() {
      accepting = false;
      listenersClosed ??= Promise.all([closeServer(tcpServer), closeServer(tls)]);
      const devicesNow = [...devicesById.values()];
      await Promise.all(devicesNow.map((c) => new Promise<void>((resolve) => c.close(() => resolve()))));
    },
    async close() {
      accepting = false;
      listenersClosed ??= Promise.all([closeServer(tcpServer), closeServer(tls)]);
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await listenersClosed;
    },
  };
}

function safeJson(payload: Buffer | string): unknown {
  try {
    return parseBoundedJson(payload);
  } catch {
    return undefined;
  }
}
