import { randomBytes } from 'node:crypto';
import mqtt, { type IClientOptions, type IPublishPacket, type MqttClient } from 'mqtt';
import { topicMatches } from '@mowerline/contract';
import { barrierTopic, commandResponseFilter, ingestFilters, shared } from './topics.ts';

export type MessageHandler = (topic: string, payload: Buffer) => void;
/** Upstream device messages; `ack` (acknowledge-after-write only) is to be called once the message is written. */
export type IngestHandler = (topic: string, payload: Buffer, ack?: () => void) => void;

/** How the server meets its devices' broker: ingest and command responses in, publishing out. */
export interface Bus {
  connected(): boolean;
  publish(topic: string, payload: unknown, opts?: { qos?: 0 | 1; retain?: boolean }): Promise<void>;
  /** Extra subscriptions for later features (shell sessions, OTA); returns the way to undo it. */
  listen(filter: string, handler: MessageHandler): Promise<() => Promise<void>>;
  /** Waits until everything the broker routed to this node before now has been handed to the handlers. */
  drain(timeoutMs?: number): Promise<boolean>;
  /** Stops taking upstream device messages (shutdown). */
  stopIngest(): Promise<void>;
  end(): Promise<void>;
}

export interface BusOptions {
  url: string;
  username?: string;
  password?: string;
  nodeId: string;
  /** MQTT client id; stable across restarts of this node when `ackAfterWrite` (its session lives on in the broker). */
  clientId: string;
  /** Shared-subscription group for the upstream topics: each message goes to one node of the group. */
  shareGroup: string;
  /**
   * Acknowledge the broker's QoS 1 PUBLISH of a device message only once it is written, in a
   * persistent session (clean start off, `sessionExpirySeconds`): what a crashed node had not
   * written, the broker sends again when the node's client id reconnects.
   */
  ackAfterWrite: boolean;
  sessionExpirySeconds: number;
  onIngest: IngestHandler;
  onCommandResponse: MessageHandler;
  log: { warn(o: object, m: string): void; info(o: object, m: string): void };
}

/**
 * The server's MQTT client towards an external broker: ingest subscriptions (shared between
 * nodes), command responses, publishing to devices, and a barrier to drain on shutdown.
 */
export class MqttBus implements Bus {
  private readonly barriers = new Map<string, () => void>();
  private readonly listeners = new Set<{ filter: string; handler: MessageHandler }>();
  private readonly ingestSubscriptions: string[];
  /** Compared with every incoming topic: built once. */
  private readonly barrier: string;
  /** Ingest PUBLISHes whose PUBACK waits for the write (mqtt.js must not send its own). */
  private readonly deferred = new WeakSet<IPublishPacket>();
  /** Changes with every connection: a PUBACK is only ever sent on the connection that received the message. */
  private connection = 0;
  /** Messages given up unacknowledged on shutdown: then the session must outlive this node. */
  private keepSession = false;

  private constructor(
    private readonly client: MqttClient,
    private readonly opts: BusOptions,
  ) {
    this.ingestSubscriptions = ingestFilters.map((f) => shared(opts.shareGroup, f));
    this.barrier = barrierTopic(opts.nodeId);
    client.on('message', (topic, payload, packet) => this.dispatch(topic, payload, packet));
    client.on('connect', () => this.connection++);
    client.on('close', () => this.connection++);
    if (opts.ackAfterWrite) {
      // mqtt.js handles one incoming packet at a time and sends the PUBACK when this callback is
      // called; holding the callback until the write would stall every packet behind it (one
      // batch per message). So the callback returns at once, with an error for a deferred message,
      // which makes mqtt.js skip its PUBACK (and nothing else), and this bus sends it itself.
      client.handleMessage = (packet, callback) => {
        if (this.deferred.has(packet)) {
          this.deferred.delete(packet);
          callback(DEFERRED);
        } else callback();
      };
    }
  }

  static async connect(opts: BusOptions): Promise<MqttBus> {
    const options: IClientOptions = {
      clientId: opts.clientId,
      username: opts.username,
      password: opts.password,
      protocolVersion: 5,
      // A persistent session with acknowledge-after-write: the broker keeps what this node has not
      // acknowledged (and its share of new messages) while the node restarts.
      clean: !opts.ackAfterWrite,
      keepalive: 30,
      reconnectPeriod: 1000,
      connectTimeout: 10_000,
      // A large receive window so the broker never throttles the platform behind device traffic.
      properties: { receiveMaximum: 65_535, ...(opts.ackAfterWrite ? { sessionExpiryInterval: opts.sessionExpirySeconds } : {}) },
    };
    // The handlers are in place before the CONNACK: a resumed session's redelivered messages can
    // arrive in the same read. No retries here: a broker that is down at start is reported at once
    // (gateway.ts).
    const client = mqtt.connect(opts.url, { ...options, manualConnect: true });
    const bus = new MqttBus(client, opts);
    await new Promise<void>((resolve, reject) => {
      const settle = (err?: Error) => {
        client.off('error', fail);
        client.off('close', closed);
        client.off('connect', connected);
        if (!err) return resolve();
        client.end(true);
        reject(err);
      };
      const fail = (err: Error) => settle(err);
      const closed = () => settle(new Error('connection closed'));
      const connected = () => settle();
      client.on('error', fail);
      client.on('close', closed);
      client.on('connect', connected);
      client.connect();
    });
    client.on('error', (err) => opts.log.warn({ err }, 'broker connection error'));
    client.on('offline', () => opts.log.warn({}, 'broker connection lost; reconnecting'));
    await client.subscribeAsync([...bus.ingestSubscriptions, commandResponseFilter, barrierTopic(opts.nodeId)], { qos: 1 });
    return bus;
  }

  connected(): boolean {
    return this.client.connected;
  }

  async publish(topic: string, payload: unknown, opts: { qos?: 0 | 1; retain?: boolean } = {}): Promise<void> {
    await this.client.publishAsync(topic, typeof payload === 'string' ? payload : JSON.stringify(payload), { qos: opts.qos ?? 1, retain: opts.retain ?? false });
  }

  async listen(filter: string, handler: MessageHandler): Promise<() => Promise<void>> {
    const entry = { filter, handler };
    this.listeners.add(entry);
    await this.client.subscribeAsync(filter, { qos: 1 });
    return async () => {
      this.listeners.delete(entry);
      if (![...this.listeners].some((l) => l.filter === filter)) await this.client.unsubscribeAsync(filter);
    };
  }

  /** A QoS 1 message to our own barrier topic arrives after everything before it on the same connection. */
  async drain(timeoutMs = 5000): Promise<boolean> {
    if (!this.client.connected) return false;
    const nonce = randomBytes(8).toString('hex');
    const arrived = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.barriers.delete(nonce);
        resolve(false);
      }, timeoutMs);
      this.barriers.set(nonce, () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    await this.publish(barrierTopic(this.opts.nodeId), nonce);
    return arrived;
  }

  /** Leaves the share group: after the UNSUBACK nothing more arrives for it. */
  async stopIngest(): Promise<void> {
    if (this.client.connected) await this.client.unsubscribeAsync(this.ingestSubscriptions);
  }

  /** Messages the ingest gave up unacknowledged (shutdown with the database away): keep the session for the next start. */
  keepSessionForRedelivery(): void {
    this.keepSession = true;
  }

  async end(): Promise<void> {
    for (const resolve of this.barriers.values()) resolve();
    // A clean stop wrote and acknowledged everything, and left the share group: the session may go
    // (MQTT 5 lets DISCONNECT shorten its expiry), so the broker queues nothing more for it.
    const expire = this.opts.ackAfterWrite && !this.keepSession && this.client.connected;
    await this.client.endAsync(false, expire ? { properties: { sessionExpiryInterval: 0 } } : {});
  }

  private dispatch(topic: string, payload: Buffer, packet: IPublishPacket) {
    if (topic === this.barrier) {
      this.barriers.get(payload.toString())?.();
      this.barriers.delete(payload.toString());
      return;
    }
    if (topicMatches(commandResponseFilter, topic)) this.opts.onCommandResponse(topic, payload);
    else if (ingestFilters.some((f) => topicMatches(f, topic))) {
      if (this.opts.ackAfterWrite && packet.qos === 1 && packet.messageId !== undefined) {
        this.deferred.add(packet);
        const connection = this.connection;
        const messageId = packet.messageId;
        this.opts.onIngest(topic, payload, () => this.puback(messageId, connection));
      } else this.opts.onIngest(topic, payload);
    }
    for (const l of this.listeners) if (topicMatches(l.filter, topic)) l.handler(topic, payload);
  }

  /**
   * After a reconnect the broker sends every unacknowledged message again (same packet id) and
   * may reuse an id once it is acknowledged, so an acknowledgement is sent only on the connection
   * that received the message; the copy sent again is written (harmlessly) and acknowledged.
   */
  private puback(messageId: number, connection: number) {
    if (connection !== this.connection || !this.client.connected) return;
    (this.client as unknown as { _sendPacket(p: object, cb?: () => void): void })._sendPacket({ cmd: 'puback', messageId, reasonCode: 0 });
  }
}

const DEFERRED = new Error('acknowledged once written');
