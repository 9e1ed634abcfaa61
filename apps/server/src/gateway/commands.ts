import { randomBytes } from 'node:crypto';
import {
  commandResponseSchema,
  deviceTopic,
  deviceTopics,
  parseDeviceTopic,
  PROTOCOL_VERSION,
  type CommandErrorBody,
  type CommandRequest,
} from '@mowerline/contract';
import type { Counters } from './counters.ts';
import { AppError } from '../http/envelope.ts';
import { parseBoundedJson } from './bounded-json.ts';

/** Why a command did not produce a result. */
export class CommandError extends Error {
  constructor(
    readonly reason: 'offline' | 'timeout' | 'device' | 'unavailable',
    readonly sn: string,
    readonly timeoutMs: number,
    readonly device?: CommandErrorBody,
  ) {
    super(device ? `${device.code}: ${device.message}` : reason);
  }
}

/**
 * The catalogue answer for a failed command: offline, timed out, no gateway, or refused by the
 * device (`refused`, with the device's own code as data). Anything else is passed on as it is.
 */
export function commandFailure(err: unknown, refused: 'DEVICE_COMMAND_FAILED' | 'TASK_COMMAND_REFUSED' = 'DEVICE_COMMAND_FAILED'): unknown {
  if (!(err instanceof CommandError)) return err;
  switch (err.reason) {
    case 'offline':
      return new AppError('DEVICE_OFFLINE', { sn: err.sn });
    case 'timeout':
      return new AppError('DEVICE_COMMAND_TIMEOUT', { sn: err.sn, timeoutMs: err.timeoutMs });
    case 'device':
      return new AppError(refused, { detail: err.message }, { code: err.device?.code ?? '' });
    default:
      return new AppError('GATEWAY_UNAVAILABLE');
  }
}

interface Pending {
  sn: string;
  timeoutMs: number;
  resolve(result: unknown): void;
  reject(err: CommandError): void;
  timer: NodeJS.Timeout;
}

export interface CommandTransport {
  publish(topic: string, payload: unknown): Promise<void>;
  isOnline(sn: string): Promise<boolean>;
}

/**
 * Request/response over `cmd/req` and `cmd/res`. Every node hears every response and settles only
 * the ids it sent, so the device's reply may travel through any broker node.
 */
export class CommandChannel {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly transport: CommandTransport,
    private readonly counters: Counters,
  ) {}

  async send(sn: string, name: string, args: Record<string, unknown>, timeoutMs: number): Promise<unknown> {
    if (!(await this.transport.isOnline(sn))) throw new CommandError('offline', sn, timeoutMs);
    const id = randomBytes(12).toString('base64url');
    const request: CommandRequest = { v: PROTOCOL_VERSION, id, name, args, timeoutMs, deadline: Date.now() + timeoutMs };
    const result = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.counters.inc('commands.timeout');
        reject(new CommandError('timeout', sn, timeoutMs));
      }, timeoutMs);
      this.pending.set(id, { sn, timeoutMs, resolve, reject, timer });
    });
    this.counters.inc('commands.sent');
    try {
      await this.transport.publish(deviceTopic(sn, deviceTopics.cmdReq), request);
    } catch {
      this.settle(id)?.reject(new CommandError('unavailable', sn, timeoutMs));
    }
    return result;
  }

  /** A `cmd/res` message from any device; unknown ids belong to another node and are ignored. */
  handleResponse(topic: string, payload: Buffer): void {
    const where = parseDeviceTopic(topic);
    let json: unknown;
    try {
      json = parseBoundedJson(payload);
    } catch {
      this.counters.inc('dropped.json');
      return;
    }
    const parsed = commandResponseSchema.safeParse(json);
    if (!where || !parsed.success) {
      this.counters.inc('dropped.schema');
      return;
    }
    const waiting = this.pending.get(parsed.data.id);
    // A device can only answer for itself: the reply must come from the SN that was asked.
    if (!waiting || waiting.sn !== where.sn) return;
    this.settle(parsed.data.id);
    if (parsed.data.ok) {
      this.counters.inc('commands.ok');
      waiting.resolve(parsed.data.result);
    } else {
      this.counters.inc('commands.failed');
      waiting.reject(new CommandError('device', waiting.sn, waiting.timeoutMs, parsed.data.error));
    }
  }

  /** On shutdown: nothing will answer any more. */
  rejectAll(): void {
    for (const id of [...this.pending.keys()]) {
      const p = this.settle(id);
      p?.reject(new CommandError('unavailable', p.sn, p.timeoutMs));
    }
  }

  private settle(id: string): Pending | undefined {
    const p = this.pending.get(id);
    if (!p) return undefined;
    clearTimeout(p.timer);
    this.pending.delete(id);
    return p;
  }
}

