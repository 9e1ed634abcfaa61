import type { Aedes, AedesPublishPacket, PublishPacket } from 'aedes';
import { barrierTopic, commandResponseFilter, ingestFilters } from './topics.ts';
import type { Bus, IngestHandler, MessageHandler } from './bus.ts';

type Deliver = (packet: AedesPublishPacket, done: () => void) => void;

interface LocalBusOptions {
  onIngest: IngestHandler;
  onCommandResponse: MessageHandler;
  /** Messages the broker already handed to the ingest before its PUBACK (acknowledge-after-write): not twice. */
  ingestedBeforeAck?: (payload: Buffer | string) => boolean;
  log: { warn(o: object, m: string): void };
}

/**
 * The bus of the embedded broker: the server subscribes and publishes inside aedes itself. The
 * first design connected an MQTT client to its own broker over loopback; profiling the embedded
 * ingest (bench/ingest.ts) showed that hop (encoding each message again, QoS 1 bookkeeping for the
 * server's session, parsing it back) as a large part of the single thread's work.
 */
export class LocalBus implements Bus {
  private open = true;
  private readonly ingest: Array<{ filter: string; deliver: Deliver }>;

  private constructor(
    private readonly broker: Aedes,
    private readonly opts: LocalBusOptions,
  ) {
    const ingested = opts.ingestedBeforeAck;
    const onIngest: MessageHandler = (topic, payload) => opts.onIngest(topic, payload);
    const deliver = this.deliverTo(onIngest);
    this.ingest = ingestFilters.map((filter) => ({ filter, deliver: ingested ? (packet, done) => (ingested(packet.payload) ? done() : deliver(packet, done)) : deliver }));
  }

  static async create(broker: Aedes, opts: LocalBusOptions): Promise<LocalBus> {
    const bus = new LocalBus(broker, opts);
    await Promise.all([...bus.ingest.map((s) => bus.subscribe(s.filter, s.deliver)), bus.subscribe(commandResponseFilter, bus.deliverTo(opts.onCommandResponse))]);
    return bus;
  }

  connected(): boolean {
    return this.open && !this.broker.closed;
  }

  publish(topic: string, payload: unknown, opts: { qos?: 0 | 1; retain?: boolean } = {}): Promise<void> {
    const packet: PublishPacket = {
      cmd: 'publish',
      topic,
      payload: Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload)),
      qos: opts.qos ?? 1,
      retain: opts.retain ?? false,
      dup: false,
    };
    return new Promise((resolve, reject) => this.broker.publish(packet, (err) => (err ? reject(err) : resolve())));
  }

  async listen(filter: string, handler: MessageHandler): Promise<() => Promise<void>> {
    const deliver = this.deliverTo(handler);
    await this.subscribe(filter, deliver);
    return () => this.unsubscribe(filter, deliver);
  }

  /**
   * aedes hands messages to subscribers in publish order and calls a publish back once every
   * subscriber has its message, so a message published now completes after everything before it.
   */
  async drain(timeoutMs = 5000): Promise<boolean> {
    if (!this.connected()) return false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const barrier = this.publish(barrierTopic('local'), '', { qos: 0 }).then(() => true);
    const drained = await Promise.race([barrier, timeout]);
    clearTimeout(timer);
    return drained;
  }

  async stopIngest(): Promise<void> {
    await Promise.all(this.ingest.map((s) => this.unsubscribe(s.filter, s.deliver)));
  }

  async end(): Promise<void> {
    this.open = false;
  }

  private deliverTo(handler: MessageHandler): Deliver {
    return (packet, done) => {
      try {
        handler(packet.topic, Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload));
      } catch (err) {
        // A throwing handler must not stall aedes' delivery to everyone else.
        this.opts.log.warn({ err, topic: packet.topic }, 'a bus handler failed');
      }
      done();
    };
  }

  private subscribe(filter: string, deliver: Deliver): Promise<void> {
    return new Promise((resolve) => this.broker.subscribe(filter, deliver, () => resolve()));
  }

  private unsubscribe(filter: string, deliver: Deliver): Promise<void> {
    return new Promise((resolve) => this.broker.unsubscribe(filter, deliver, () => resolve()));
  }
}
