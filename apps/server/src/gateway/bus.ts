import { randomBytes } from 'node:crypto';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { topicMatches } from '@mowerline/contract';
import { barrierTopic, commandResponseFilter, ingestFilters, shared } from './topics.ts';

export type MessageHandler = (topic: string, payload: Buffer) => void;

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
  /** Shared-subscription group for the upstream topics: each message goes to one node of the group. */
  shareGroup: string;
  onIngest: MessageHandler;
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

  private constructor(
    private readonly client: MqttClient,
    private readonly opts: BusOptions,
  ) {
    this.ingestSubscriptions = ingestFilters.map((f) => shared(opts.shareGroup, f));
    client.on('message', (topic, payload) => this.dispatch(topic, payload));
  }

  static async connect(opts: BusOptions): Promise<MqttBus> {
    const options: IClientOptions = {
      clientId: `mowerline-server-${opts.nodeId}`,
      username: opts.username,
      password: opts.password,
      protocolVersion: 5,
      clean: true,
      keepalive: 30,
      reconnectPeriod: 1000,
      connectTimeout: 10_000,
      // A large receive window so the broker never throttles the platform behind device traffic.
      properties: { receiveMaximum: 65_535 },
    };
    // No retries here: a broker that is down at start is reported at once (gateway.ts).
    const client = await mqtt.connectAsync(opts.url, options, false);
    const bus = new MqttBus(client, opts);
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

  async end(): Promise<void> {
    for (const resolve of this.barriers.values()) resolve();
    await this.client.endAsync();
  }

  private dispatch(topic: string, payload: Buffer) {
    if (topic === barrierTopic(this.opts.nodeId)) {
      this.barriers.get(payload.toString())?.();
      this.barriers.delete(payload.toString());
      return;
    }
    if (topicMatches(commandResponseFilter, topic)) this.opts.onCommandResponse(topic, payload);
    else if (ingestFilters.some((f) => topicMatches(f, topic))) this.opts.onIngest(topic, payload);
    for (const l of this.listeners) if (topicMatches(l.filter, topic)) l.handler(topic, payload);
  }
}
