import {
  commandErrorCodes,
  PROTOCOL_VERSION,
  SHELL_OPEN_COMMAND,
  shellOpenArgsSchema,
  shellRefusalCodes,
  shellTopic,
  type CommandRequest,
  type CommandResponse,
  type ShellOpenArgs,
} from '@mowerline/contract';
import { ShellEndpoint, type ShellProgram } from './endpoint.ts';

/** How the host reaches the broker: the simulated device's own MQTT connection. */
export interface ShellTransport {
  /** QoS 1 publish. */
  publish(topic: string, payload: string): void;
  subscribe(topic: string): Promise<void>;
  unsubscribe(topic: string): Promise<void>;
}

export interface ShellHostOptions {
  /** Sessions the device runs at once; one more is refused with BUSY. */
  maxSessions?: number;
  /** A reason to refuse a new session (e.g. a firmware update in progress), or undefined. */
  refuse?: () => string | undefined;
  /** The program behind a new session. */
  program: (args: ShellOpenArgs) => ShellProgram;
}

/**
 * The device side of the remote shell for one mower: answers `shell.open` and routes each
 * session's `…/shell/{sid}/in` messages to its endpoint. The simulator hands it every command
 * request and every message on a shell topic (docs/device-protocol.md, "Remote shell").
 */
export class ShellHost {
  private readonly sessions = new Map<string, ShellEndpoint>();

  constructor(
    readonly sn: string,
    private readonly transport: ShellTransport,
    private readonly opts: ShellHostOptions,
  ) {}

  /** True when `name` is a command this host answers. */
  handles(name: string): boolean {
    return name === SHELL_OPEN_COMMAND;
  }

  openSessions(): number {
    return this.sessions.size;
  }

  /** Answers `shell.open`: subscribes to the session's input before accepting it. */
  async handleCommand(req: CommandRequest): Promise<CommandResponse> {
    const fail = (code: string, message: string): CommandResponse => ({ v: PROTOCOL_VERSION, id: req.id, ok: false, error: { code, message } });
    const parsed = shellOpenArgsSchema.safeParse(req.args);
    if (!parsed.success) return fail(commandErrorCodes.badArgs, 'invalid shell.open arguments');
    const args = parsed.data;
    const why = this.opts.refuse?.();
    if (why) return fail(shellRefusalCodes.refused, why);
    if (this.sessions.size >= (this.opts.maxSessions ?? 2)) return fail(shellRefusalCodes.busy, 'too many shell sessions on this device');
    if (this.sessions.has(args.sessionId)) return fail(commandErrorCodes.badArgs, 'session id already in use');
    const inTopic = shellTopic(this.sn, args.sessionId, 'in');
    const outTopic = shellTopic(this.sn, args.sessionId, 'out');
    const endpoint = new ShellEndpoint(
      args.sessionId,
      args,
      (msg) => this.transport.publish(outTopic, JSON.stringify(msg)),
      this.opts.program(args),
      (id) => {
        this.sessions.delete(id);
        this.transport.unsubscribe(inTopic).catch(() => {});
      },
    );
    this.sessions.set(args.sessionId, endpoint);
    await this.transport.subscribe(inTopic);
    // Output starts after the acceptance has been published, so the platform hears `ok` first.
    setImmediate(() => endpoint.start());
    return { v: PROTOCOL_VERSION, id: req.id, ok: true, result: { accepted: true, shell: 'mowersh' } };
  }

  /** A message on any topic; true when it belonged to a shell session. */
  handleMessage(topic: string, payload: Buffer): boolean {
    const m = /\/shell\/([A-Za-z0-9_-]+)\/in$/.exec(topic);
    if (!m) return false;
    this.sessions.get(m[1]!)?.receive(payload);
    return true;
  }

  /** The device is going down (reboot, disconnect): every session ends with it. */
  closeAll(message: string): void {
    for (const s of [...this.sessions.values()]) s.exit('device_closed', message);
  }
}
