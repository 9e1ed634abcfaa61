import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import {
  builtinCommands,
  commandErrorCodes,
  commandRequestSchema,
  deviceTopic,
  deviceTopics,
  PROTOCOL_VERSION,
  type CommandRequest,
  type CommandResponse,
} from '@mowerline/contract';
import { OtaAgent, type OtaKnobs } from './ota.ts';

export interface OtaMowerOptions {
  sn: string;
  secret: string;
  mqttUrl: string;
  firmware: string;
  /** The platform's OTA public key (PEM), pinned at the factory. */
  publicKeyPem: string;
  knobs?: OtaKnobs;
  /** How long the mower stays dark after a power cut (ms). */
  powerOffMs?: number;
}

/**
 * A mower reduced to what an update exercises: connect with presence and last will, telemetry with
 * the running firmware, the command channel (ping, reboot, ota.start) and the OTA agent. The demo
 * fleet's mowers plug the same OtaAgent into their own command router.
 */
export class OtaMower {
  readonly agent: OtaAgent;
  private client: MqttClient | undefined;
  private conn = '';
  private current: string;
  private readonly started = Date.now();

  constructor(private readonly opts: OtaMowerOptions) {
    this.current = opts.firmware;
    this.agent = new OtaAgent(
      {
        sn: opts.sn,
        firmware: () => this.current,
        publish: (suffix, payload) => this.publish(suffix, payload),
        reboot: (firmware) => this.reboot(firmware),
        powerCut: () => this.powerCut(),
      },
      opts.publicKeyPem,
      opts.knobs,
    );
  }

  get sn(): string {
    return this.opts.sn;
  }

  firmware(): string {
    return this.current;
  }

  online(): boolean {
    return this.client?.connected ?? false;
  }

  /**
   * Connects (waiting through a broker that is down) and keeps reconnecting on its own after a
   * lost connection; every (re)connect announces presence, sends telemetry and lets the agent
   * report what the boot brought.
   */
  async connect(): Promise<void> {
    const { sn } = this.opts;
    this.conn = randomBytes(8).toString('base64url');
    const status = deviceTopic(sn, deviceTopics.status);
    const client = mqtt.connect(this.opts.mqttUrl, {
      clientId: sn,
      username: sn,
      password: this.opts.secret,
      clean: true,
      keepalive: 30,
      reconnectPeriod: 300,
      connectTimeout: 5000,
      will: { topic: status, payload: Buffer.from(JSON.stringify({ v: PROTOCOL_VERSION, online: false, conn: this.conn })), qos: 1, retain: true },
    });
    this.client = client;
    client.on('error', () => {});
    client.on('message', (topic, payload) => void this.onMessage(topic, payload));
    const announced = new Promise<void>((resolve) => {
      client.on('connect', () => void this.announce(client).then(resolve, () => {}));
    });
    await announced;
  }

  private async announce(client: MqttClient): Promise<void> {
    const { sn } = this.opts;
    await client.subscribeAsync(deviceTopic(sn, deviceTopics.cmdReq), { qos: 1 });
    await client.publishAsync(deviceTopic(sn, deviceTopics.status), JSON.stringify({ v: PROTOCOL_VERSION, online: true, conn: this.conn, ts: Date.now(), firmware: this.current }), {
      qos: 1,
      retain: true,
    });
    await this.telemetry();
    await this.agent.onBoot();
  }

  /** A clean disconnect (offline published first, as the protocol asks). */
  async disconnect(): Promise<void> {
    const client = this.client;
    if (!client) return;
    this.client = undefined;
    if (client.connected) {
      await client.publishAsync(deviceTopic(this.opts.sn, deviceTopics.status), JSON.stringify({ v: PROTOCOL_VERSION, online: false, conn: this.conn }), { qos: 1, retain: true }).catch(() => {});
    }
    await client.endAsync();
  }

  async telemetry(): Promise<void> {
    await this.publish(deviceTopics.telemetry, {
      v: PROTOCOL_VERSION,
      ts: Date.now(),
      state: 'idle',
      activity: 'parked_in_cs',
      errorCode: null,
      battery: 90,
      position: null,
      bladeRpm: 0,
      rssi: -60,
      firmware: this.current,
    });
  }

  private async publish(suffix: string, payload: object): Promise<boolean> {
    if (!this.client?.connected) return false;
    await this.client.publishAsync(deviceTopic(this.opts.sn, suffix), JSON.stringify(payload), { qos: 1 });
    return true;
  }

  private async reboot(firmware: string | undefined): Promise<void> {
    await this.disconnect();
    if (firmware) this.current = firmware;
    await this.connect();
  }

  private async powerCut(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    // No DISCONNECT packet: the broker fires the last will, as for a real power loss.
    client?.end(true);
    setTimeout(() => void this.connect().catch(() => {}), this.opts.powerOffMs ?? 300);
  }

  private async onMessage(topic: string, payload: Buffer): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      return;
    }
    const parsed = commandRequestSchema.safeParse(json);
    if (!parsed.success || parsed.data.deadline < Date.now()) return;
    const res = await this.handle(parsed.data);
    void (await this.publish(deviceTopics.cmdRes, res));
  }

  private async handle(req: CommandRequest): Promise<CommandResponse> {
    if (this.agent.handles(req.name)) return this.agent.handleCommand(req);
    if (req.name === builtinCommands.ping) {
      return { v: PROTOCOL_VERSION, id: req.id, ok: true, result: { pong: true, uptimeS: Math.floor((Date.now() - this.started) / 1000), firmware: this.current } };
    }
    if (req.name === builtinCommands.reboot) {
      setTimeout(() => void this.reboot(undefined).catch(() => {}), 10);
      return { v: PROTOCOL_VERSION, id: req.id, ok: true, result: { rebooting: true } };
    }
    return { v: PROTOCOL_VERSION, id: req.id, ok: false, error: { code: commandErrorCodes.unknownCommand, message: `no such command: ${req.name}` } };
  }
}
