import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { eq } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { deviceState } from '../devices/devices.sql.ts';
import { createBatchWriter } from './batch-writer.ts';
import { MqttBus, type Bus, type MessageHandler } from './bus.ts';
import { CommandChannel } from './commands.ts';
import { Counters } from './counters.ts';
import { startEmbeddedBroker, type EmbeddedBroker } from './embedded-broker.ts';
import { DeviceCredentials, type DeviceAuthResult } from './device-credentials.ts';
import { emitDeviceFlagged } from './device-flag.ts';
import { Ingest } from './ingest.ts';
import { IngestLimits } from './ingest-limits.ts';
import { markAllOffline, startMaintenance } from './maintenance.ts';
import { KICK_TOPIC } from './topics.ts';

type Log = { info(o: object, m: string): void; warn(o: object, m: string): void; debug(o: object, m: string): void; error(o: object, m: string): void };

/** Critical events notified one by one per flush before the rest fold into one message. */

export interface Gateway {
  readonly nodeId: string;
  readonly mode: 'embedded' | 'external';
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Sends a command over the device's request/response channel; rejects with CommandError. */
  sendCommand(sn: string, name: string, args: Record<string, unknown>, timeoutMs: number): Promise<unknown>;
  /** Publishes to any topic (later features: shell sessions, OTA). */
  publish(topic: string, payload: unknown, opts?: { qos?: 0 | 1; retain?: boolean }): Promise<void>;
  /** Subscribes this node to a topic filter (later features); resolves to the unsubscribe. */
  listen(filter: string, handler: MessageHandler): Promise<() => Promise<void>>;
  /** Cuts a device's live connection (after disabling its SN or rotating its secret). */
  kick(sn: string): Promise<void>;
  /** Where devices connect: the embedded broker's ports, or the external broker's URL. */
  endpoints(): { tcpPort: number | null; tlsPort: number | null; websocketPath: string | null; externalUrl: string | null };
  /** Writes every buffered message now (tests, shutdown). */
  flush(): Promise<void>;
  stats(): { brokerConnected: boolean; clients: number | null; counters: Record<string, number>; pending: number };
  /** May this device connect (the embedded broker and the external broker's auth hook both ask)? */
  checkDevice(username: string, password: string, clientId: string): Promise<DeviceAuthResult>;
  /** A model's ingest limits changed: this node applies them with each device's next message (other nodes within a minute). */
  limitsChanged(): void;
  /** Staff cleared a device's flag: this node starts its watch afresh (it stays limited). */
  flagCleared(sn: string): void;
  /** Drops of this device on this node not yet added to the database. */
  pendingDrops(sn: string): { telemetry: number; events: number };
  /** For the WebSocket listener on the HTTP server. */
  handleWebSocket(stream: Duplex, request: IncomingMessage): void;
}

/**
 * The device gateway of one server node. Embedded mode starts aedes in-process and meets it inside
 * the process (LocalBus); external mode connects to MQTT_URL (MqttBus). Either way the same
 * Bus → Ingest → batch writer path runs.
 */
export function createGateway(config: Config, database: Database, log: Log, hooks: { onIngestBatch?: (seconds: number) => void } = {}): Gateway {
  const { db } = database;
  const nodeId = randomBytes(6).toString('hex');
  const counters = new Counters();
  const mode = config.mqttUrl ? 'external' : 'embedded';
  let broker: EmbeddedBroker | undefined;
  let bus: Bus | undefined;
  let maintenance: { stop(): Promise<void> } | undefined;
  // Flagging work in flight, awaited on stop.
  const notifying = new Set<Promise<void>>();
  const track = (p: Promise<unknown>) => {
    const done: Promise<void> = p.then(() => undefined).finally(() => notifying.delete(done));
    notifying.add(done);
  };

  // A device far above its limits for the abuse window is flagged and cut off; it may reconnect.
  const limits = new IngestLimits(db, counters, {
    defaults: config.deviceLimits,
    abuseWindowMs: config.deviceAbuseWindowMs,
    onAbuse: (sn, observed) => {
      track(
        Promise.all([
          emitDeviceFlagged(db, sn, observed, log).catch((err: unknown) => log.warn({ err, sn }, 'could not flag a device')),
          bus?.publish(KICK_TOPIC, { sn }).catch(() => {}),
        ]),
      );
    },
    log,
  });
  // The embedded broker authenticates on the node that ingests: the model's limits are then known before the first message.
  const credentials = new DeviceCredentials(db, (sn, overrides) => limits.prime(sn, overrides));

  const ingest = new Ingest(createBatchWriter(db, counters, { clockSkewMs: config.deviceClockSkewMs }), counters, {
    flushMs: config.telemetryFlushMs,
    batchMax: config.telemetryBatchMax,
    writers: database.kind === 'postgres' ? config.telemetryWriters : 1,
    maxPending: 200_000,
    maxAttempts: 5,
    ackAfterWrite: config.deviceAckAfterWrite,
    limits,
    onBatch: hooks.onIngestBatch,
    log,
  });

  const commands = new CommandChannel(
    {
      publish: (topic, payload) => requireBus().publish(topic, payload),
      isOnline: async (sn) => {
        const [row] = await db.select({ online: deviceState.online }).from(deviceState).where(eq(deviceState.sn, sn)).limit(1);
        return row?.online ?? false;
      },
    },
    counters,
  );

  function requireBus(): Bus {
    if (!bus) throw new Error('the device gateway is not running');
    return bus;
  }

  return {
    nodeId,
    mode,
    async start() {
      const handlers = {
        onIngest: (topic: string, payload: Buffer, ack?: () => void) => ingest.accept(topic, payload, new Date(), ack),
        onCommandResponse: (topic: string, payload: Buffer) => commands.handleResponse(topic, payload),
      };
      if (config.mqttUrl) {
        const parsed = new URL(config.mqttUrl);
        const username = decodeURIComponent(parsed.username) || undefined;
        const password = decodeURIComponent(parsed.password) || undefined;
        parsed.username = '';
        parsed.password = '';
        // With acknowledge-after-write the session must be found again after a crash: a stable id.
        const clientId = config.mqttClientId ?? (config.deviceAckAfterWrite ? stableClientId(config.port, config.mqttShareGroup) : `mowerline-server-${nodeId}`);
        bus = await connectBus({
          url: parsed.toString(),
          username,
          password,
          nodeId,
          clientId,
          shareGroup: config.mqttShareGroup,
          ackAfterWrite: config.deviceAckAfterWrite,
          sessionExpirySeconds: config.mqttSessionExpirySeconds,
          ...handlers,
          log,
        });
      } else {
        await markAllOffline(db);
        broker = await startEmbeddedBroker({ config, credentials, counters, log });
        bus = await broker.bus(handlers);
      }
      limits.start();
      maintenance = startMaintenance(db, { staleSeconds: config.deviceStaleSeconds, retentionDays: config.telemetryRetentionDays, embedded: database.kind === 'pglite', log });
      log.info({ mode, nodeId, mqttPort: broker?.tcpPort() ?? null }, 'device gateway started');
    },

    /**
     * Shutdown without losing what the broker accepted: stop taking devices (their wills fire),
     * let the broker hand over everything routed to us, write it, then disconnect.
     */
    async stop() {
      await maintenance?.stop();
      if (broker) await broker.disconnectDevices();
      if (bus) {
        await bus.stopIngest().catch(() => {});
        await bus.drain().catch(() => false);
      }
      await ingest.stop();
      await limits.stop();
      await Promise.all([...notifying]);
      if (bus instanceof MqttBus && (counters.snapshot()['unacknowledged.abandoned'] ?? 0) > 0) bus.keepSessionForRedelivery();
      commands.rejectAll();
      await bus?.end().catch(() => {});
      bus = undefined;
      await broker?.close();
      broker = undefined;
    },

    sendCommand: (sn, name, args, timeoutMs) => commands.send(sn, name, args, timeoutMs),
    publish: (topic, payload, opts) => requireBus().publish(topic, payload, opts),
    listen: (filter, handler) => requireBus().listen(filter, handler),
    async kick(sn) {
      // Honoured by the embedded broker; an external broker's own admin API does this (docs/device-protocol.md).
      if (bus) await bus.publish(KICK_TOPIC, { sn });
    },
    endpoints: () => ({
      tcpPort: broker?.tcpPort() ?? null,
      tlsPort: broker?.tlsPort() ?? null,
      websocketPath: mode === 'embedded' && config.mqttWs ? '/mqtt' : null,
      externalUrl: config.mqttUrl ? stripCredentials(config.mqttUrl) : null,
    }),
    flush: () => ingest.drain(),
    stats: () => ({
      brokerConnected: bus?.connected() ?? false,
      clients: broker ? broker.connectedDevices() : null,
      // With the monotonic counters, two gauges of the embedded broker's memory: what it retains.
      counters: { ...counters.snapshot(), ...(broker ? retainedGauges(broker.retained()) : {}) },
      pending: ingest.size(),
    }),
    checkDevice: (username, password, clientId) => credentials.check(username, password, clientId),
    limitsChanged: () => limits.reload(),
    flagCleared: (sn) => limits.forget(sn),
    pendingDrops: (sn) => limits.pendingDrops(sn),
    handleWebSocket(stream, request) {
      if (broker) broker.handle(stream, request);
      else stream.destroy();
    },
  };
}

function retainedGauges(r: { messages: number; bytes: number }): Record<string, number> {
  return { 'broker.retained.messages': r.messages, 'broker.retained.bytes': r.bytes };
}

/** The broker must be reachable at start: a clear message beats a server that silently ingests nothing. */
async function connectBus(opts: Parameters<typeof MqttBus.connect>[0]): Promise<Bus> {
  try {
    return await MqttBus.connect(opts);
  } catch (err) {
    throw new Error(`cannot connect to the MQTT broker at ${stripCredentials(opts.url)}: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * The same across a restart of a node (its persistent session holds what it had not acknowledged),
 * different between nodes: two nodes on one host listen on different ports. Two nodes sharing a
 * client id would take the broker session from each other; MQTT_CLIENT_ID overrides it.
 */
function stableClientId(port: number, shareGroup: string): string {
  const host = hostname().replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 64);
  return `mowerline-server-${host}-${port}-${shareGroup}`;
}

function stripCredentials(url: string): string {
  const u = new URL(url);
  u.username = '';
  u.password = '';
  return u.toString().replace(/\/$/, '');
}
