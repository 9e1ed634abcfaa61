import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import {
  deviceStatusSchema,
  deviceTopic,
  deviceTopics,
  PROTOCOL_VERSION,
  SHELL_MAX_CHUNK_BYTES,
  SHELL_OPEN_COMMAND,
  shellTopic,
  shellUpSchema,
  type ShellCloseReason,
  type ShellDown,
  type ShellServerMessage,
} from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { Recorder } from './recorder.ts';
import { closeSession } from './shell.service.ts';
import { shellControlTopic } from './shell-topics.ts';
import { parseBoundedJson } from '../gateway/bounded-json.ts';

/** What the relay needs to know about one session's bytes in flight. */
export interface FlowGauge {
  onBuffered(delta: number): void;
}

type DownBody = ShellDown extends infer D ? (D extends { seq: number; v: 1 } ? Omit<D, 'seq' | 'v'> : never) : never;

/**
 * One shell session carried by this node: the browser's socket on one side, the session's MQTT
 * topics on the other (whichever node the device's connection lives on). Output flows only
 * within the credit granted to the device, and credit comes back only for output that was both
 * written to the browser's socket and recorded, so a flooding device or a slow browser cannot
 * make this node hold more than one window of output per session.
 */
export class LiveSession {
  private closed = false;
  private downSeq = 0;
  /** Output bytes received from the device (the next expected `off`). */
  private received = 0;
  private consumed = 0;
  private grantedUpTo: number;
  private bytesIn = 0;
  private inputInFlight = 0;
  private lastActivity = Date.now();
  private deviceConn: string | undefined;
  private readonly recorder: Recorder;
  private readonly undo: Array<() => Promise<void>> = [];
  private readonly timers: NodeJS.Timeout[] = [];
  readonly startedAt = Date.now();

  constructor(
    private readonly ctx: AppContext,
    readonly id: string,
    readonly sn: string,
    private readonly ws: WebSocket,
    private readonly request: FastifyRequest,
    private readonly gauge: FlowGauge,
    private readonly onEnded: (s: LiveSession) => void,
  ) {
    this.grantedUpTo = ctx.config.shellWindowBytes;
    this.recorder = new Recorder(ctx.db, id, this.startedAt, {
      maxBytes: ctx.config.shellRecordMaxBytes,
      flushMs: 200,
      flushBytes: Math.max(SHELL_MAX_CHUNK_BYTES, ctx.config.shellWindowBytes / 2),
      onError: (err) => request.log.warn({ err, session: id }, 'shell recording batch lost'),
    });
  }

  get bufferedBytes(): number {
    return this.received - this.consumed;
  }

  /** Subscribes to the session's topics, then asks the device to open it. Throws the device's refusal. */
  async start(cols: number, rows: number): Promise<void> {
    const gw = this.ctx.gateway;
    this.undo.push(await gw.listen(shellTopic(this.sn, this.id, 'out'), (_t, payload) => this.fromDevice(payload)));
    this.undo.push(await gw.listen(deviceTopic(this.sn, deviceTopics.status), (_t, payload) => this.presence(payload)));
    this.undo.push(await gw.listen(shellControlTopic(this.id), () => void this.close('terminated')));
    await gw.sendCommand(
      this.sn,
      SHELL_OPEN_COMMAND,
      {
        sessionId: this.id,
        cols,
        rows,
        window: this.grantedUpTo,
        // The device gives up a little after the platform would, so the platform's reason wins.
        idleMs: this.ctx.config.shellIdleMs + 60_000,
        maxMs: this.ctx.config.shellMaxMs + 60_000,
        user: this.request.principal?.username ?? '',
      },
      10_000,
    );
    if (this.closed) return;
    const { shellIdleMs, shellMaxMs } = this.ctx.config;
    this.timers.push(setTimeout(() => void this.close('max_duration'), shellMaxMs));
    this.timers.push(
      setInterval(() => {
        if (Date.now() - this.lastActivity >= shellIdleMs) void this.close('idle');
      }, Math.min(5000, Math.max(50, shellIdleMs / 4))),
    );
    // Keeps the device's own idle timer from firing while the person reads without typing.
    this.timers.push(setInterval(() => this.down({ t: 'ping' }), 30_000));
    this.send({ type: 'opened', sessionId: this.id, sn: this.sn, idleMs: shellIdleMs, maxMs: shellMaxMs });
  }

  input(text: string): void {
    if (this.closed) return;
    const bytes = Buffer.from(text, 'utf8');
    // Input waiting for the broker is bounded too (a paste storm must not pile up in this node).
    if (this.inputInFlight + bytes.length > this.ctx.config.shellWindowBytes) return void this.close('flow_violation', 'input faster than the link to the device');
    this.inputInFlight += bytes.length;
    this.bytesIn += bytes.length;
    this.lastActivity = Date.now();
    void this.recorder.add('i', bytes);
    for (let i = 0; i < bytes.length; i += SHELL_MAX_CHUNK_BYTES) {
      const piece = bytes.subarray(i, i + SHELL_MAX_CHUNK_BYTES);
      void this.down({ t: 'data', data: piece.toString('base64') }).then(() => (this.inputInFlight -= piece.length));
    }
  }

  resize(cols: number, rows: number): void {
    if (this.closed) return;
    void this.recorder.add('r', Buffer.from(`${cols}x${rows}`));
    this.down({ t: 'resize', cols, rows });
  }

  /** Forgets a session that never opened (the device refused): no close to send, nothing to audit. */
  async dispose(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    await Promise.all(this.undo.map((u) => u().catch(() => {})));
  }

  /** Ends the session once: tells the device and the browser, stores the end, audits it. */
  async close(reason: ShellCloseReason, message?: string): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    // The device is told unless it is the one that ended it (or is gone).
    if (!['device_offline', 'device_closed', 'exit'].includes(reason)) void this.down({ t: 'close', reason });
    this.gauge.onBuffered(-this.bufferedBytes);
    this.consumed = this.received;
    const bytesOut = this.received;
    try {
      // The history is final before the browser hears the end.
      await this.recorder.flush();
      await Promise.all(this.undo.map((u) => u().catch(() => {})));
      await closeSession(this.ctx.db, this.id, {
        reason,
        message,
        bytesIn: this.bytesIn,
        bytesOut,
        recordedBytes: this.recorder.recordedBytes,
        recordTruncated: this.recorder.truncated,
      });
    } catch (err) {
      this.request.log.error({ err, session: this.id }, 'could not record the end of a shell session');
    }
    this.send({ type: 'closed', reason, message });
    if (this.ws.readyState === this.ws.OPEN) this.ws.close(1000, reason);
    try {
      await this.ctx.audit(this.request, {
        action: 'device.shell.close',
        result: 'success',
        targetType: 'device',
        targetId: this.sn,
        targetName: this.sn,
        detail: { sessionId: this.id, reason, bytesIn: this.bytesIn, bytesOut, durationMs: Date.now() - this.startedAt },
      });
    } catch (err) {
      this.request.log.error({ err, session: this.id }, 'could not record the end of a shell session');
    }
    this.onEnded(this);
  }

  private fromDevice(payload: Buffer): void {
    if (this.closed) return;
    let json: unknown;
    try {
      json = parseBoundedJson(payload);
    } catch {
      return void this.close('flow_violation', 'malformed message');
    }
    const parsed = shellUpSchema.safeParse(json);
    if (!parsed.success) return void this.close('flow_violation', 'malformed message');
    const msg = parsed.data;
    if (msg.t === 'close') return void this.close(msg.reason === 'exit' ? 'exit' : 'device_closed', msg.message);
    const chunk = Buffer.from(msg.data, 'base64');
    // A QoS 1 redelivery repeats an offset already seen: harmless, skipped.
    if (msg.off + chunk.length <= this.received) return;
    if (msg.off !== this.received) return void this.close('flow_violation', `output out of order at ${this.received}`);
    if (msg.off + chunk.length > this.grantedUpTo) return void this.close('flow_violation', 'output beyond the credit window');
    this.received += chunk.length;
    this.gauge.onBuffered(chunk.length);
    this.lastActivity = Date.now();
    const shown = new Promise<void>((resolve) => this.ws.send(chunk, { binary: true }, () => resolve()));
    void Promise.all([shown, this.recorder.add('o', chunk)]).then(() => this.release(chunk.length));
  }

  /** Output left this node: give the device more credit once a quarter window has drained. */
  private release(bytes: number): void {
    if (this.closed) return;
    this.consumed += bytes;
    this.gauge.onBuffered(-bytes);
    const window = this.ctx.config.shellWindowBytes;
    if (this.consumed + window - this.grantedUpTo >= window / 4) {
      this.grantedUpTo = this.consumed + window;
      this.down({ t: 'credit', upTo: this.grantedUpTo });
    }
  }

  /** The device's presence: going offline, or coming back with a new connection, ends its sessions. */
  private presence(payload: Buffer): void {
    let json: unknown;
    try {
      json = parseBoundedJson(payload);
    } catch {
      return;
    }
    const status = deviceStatusSchema.safeParse(json);
    if (!status.success) return;
    if (!status.data.online) return void this.close('device_offline');
    if (this.deviceConn === undefined) this.deviceConn = status.data.conn;
    else if (this.deviceConn !== status.data.conn) void this.close('device_offline');
  }

  /** Publishes to the device; resolves once the broker has it (or the attempt failed and was logged). */
  private down(body: DownBody): Promise<void> {
    const msg = { v: PROTOCOL_VERSION, seq: this.downSeq++, ...body };
    return this.ctx.gateway.publish(shellTopic(this.sn, this.id, 'in'), msg).catch((err: unknown) => {
      this.request.log.warn({ err, session: this.id }, 'shell message to the device not published');
    });
  }

  private send(msg: ShellServerMessage): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(JSON.stringify(msg));
  }
}
