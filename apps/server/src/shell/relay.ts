import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { canAccess, errorMessage, errors, shellApi, shellClientMessageSchema, type ErrorKey, type ErrorParams, type ShellServerMessage, type ShellStats } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { CommandError } from '../gateway/commands.ts';
import { factorRefusal } from '../http/auth.ts';
import { AppError, localeOf } from '../http/envelope.ts';
import { requestMeta } from '../http/request-meta.ts';
import { LiveSession } from './live-session.ts';
import { closeLostSessions, closeSession, heartbeat, HEARTBEAT_MS, reserveSession } from './shell.service.ts';
import { parseBoundedJson } from '../gateway/bounded-json.ts';

/** The browser must authenticate within this time after the socket opens. */
const AUTH_TIMEOUT_MS = 10_000;
/** How often a live session's sign-in and role are checked again (sign-out, disabling, demotion end it). */
export const RECHECK_MS = 5000;

/**
 * This node's end of the remote shell: it accepts browser sockets, authenticates them with the
 * access token sent as the first message (never in the URL, which ends up in logs), and carries
 * their sessions. Nothing here assumes the device is connected to this node: every byte to and
 * from the device goes through the broker, and the session's state is in the database.
 */
export class ShellRelay {
  private readonly sessions = new Map<string, LiveSession>();
  /** The access token each live session was opened with, to check it again while it runs. */
  private readonly tokens = new Map<string, string>();
  private buffered = 0;
  private peak = 0;
  private readonly beat: NodeJS.Timeout;
  private readonly recheck: NodeJS.Timeout;

  constructor(
    private readonly app: FastifyInstance,
    private readonly ctx: AppContext,
  ) {
    this.beat = setInterval(() => {
      // Refresh ours, and retire sessions whose node died (they would hold a limit slot forever).
      heartbeat(ctx.db, [...this.sessions.keys()])
        .then(() => closeLostSessions(ctx.db))
        .catch((err: unknown) => app.log.warn({ err }, 'shell heartbeat failed'));
    }, HEARTBEAT_MS);
    this.recheck = setInterval(() => void this.recheckAccess(), RECHECK_MS);
  }

  /** Ends the sessions whose staff member is no longer signed in or no longer allowed a shell. */
  private async recheckAccess(): Promise<void> {
    for (const [id, token] of this.tokens) {
      if ((await this.authenticate(undefined, token)) !== undefined) await this.sessions.get(id)?.close('revoked');
    }
  }

  stats(): ShellStats {
    return {
      nodeId: this.ctx.gateway.nodeId,
      sessions: this.sessions.size,
      bufferedBytes: this.buffered,
      peakBufferedBytes: this.peak,
      windowBytes: this.ctx.config.shellWindowBytes,
    };
  }

  /** Terminates a session carried by this node; false when another node (or nobody) carries it. */
  async terminateLocal(id: string): Promise<boolean> {
    const s = this.sessions.get(id);
    if (!s) return false;
    await s.close('terminated');
    return true;
  }

  async shutdown(): Promise<void> {
    clearInterval(this.beat);
    clearInterval(this.recheck);
    await Promise.all([...this.sessions.values()].map((s) => s.close('server_shutdown')));
  }

  /** One browser socket: `auth`, then `open`, then input/resize/close until the session ends. */
  accept(ws: WebSocket, request: FastifyRequest): void {
    let session: LiveSession | undefined;
    let stage: 'auth' | 'open' | 'opening' | 'live' = 'auth';
    let token = '';
    const authTimer = setTimeout(() => this.fail(ws, request, 'SHELL_AUTH_REQUIRED'), AUTH_TIMEOUT_MS);

    ws.on('message', (raw, isBinary) => {
      let msg;
      try {
        msg = isBinary ? undefined : shellClientMessageSchema.safeParse(parseBoundedJson(raw.toString()));
      } catch {
        msg = undefined;
      }
      if (!msg?.success) return this.fail(ws, request, 'SHELL_BAD_MESSAGE');
      const m = msg.data;
      if (stage === 'auth') {
        if (m.type !== 'auth') return this.fail(ws, request, 'SHELL_AUTH_REQUIRED');
        stage = 'opening';
        clearTimeout(authTimer);
        void this.authenticate(request, m.token).then((key) => {
          if (key) return this.fail(ws, request, key);
          token = m.token;
          stage = 'open';
          this.send(ws, { type: 'ready' });
        });
        return;
      }
      if (stage === 'open' && m.type === 'open') {
        stage = 'opening';
        void this.open(ws, request, m.sn, m.cols, m.rows, token).then((s) => {
          session = s;
          stage = 'live';
        });
        return;
      }
      if (stage !== 'live' || !session) return;
      if (m.type === 'input') session.input(m.data);
      else if (m.type === 'resize') session.resize(m.cols, m.rows);
      else if (m.type === 'close') void session.close('user');
    });
    ws.on('close', () => {
      clearTimeout(authTimer);
      void session?.close('browser_gone');
    });
    ws.on('error', () => ws.terminate());
  }

  /** Undefined when the token is a live session of a role allowed to use the shell. */
  private async authenticate(request: FastifyRequest | undefined, token: string): Promise<ErrorKey | undefined> {
    // The principal reader reads the bearer header; the socket carries the token in its first message instead.
    const asHeader = { headers: { authorization: `Bearer ${token}` } } as FastifyRequest;
    const who = await this.ctx.principalOf(asHeader).catch(() => undefined);
    if (!who) return 'NOT_SIGNED_IN';
    if (request) request.principal = who;
    if (!canAccess(who.role, shellApi.socket.access.resource)) return 'FORBIDDEN';
    // A shell is a step-up action: the same rule the HTTP guard applies, on the auth message.
    return factorRefusal(who, shellApi.socket, this.ctx.config);
  }

  private async open(ws: WebSocket, request: FastifyRequest, sn: string, cols: number, rows: number, token: string): Promise<LiveSession | undefined> {
    const who = request.principal!;
    const id = randomBytes(16).toString('base64url');
    const audit = (result: 'success' | 'failure', detail: Record<string, unknown>) =>
      this.ctx.audit(request, { action: 'device.shell.open', result, targetType: 'device', targetId: sn, targetName: sn, detail: { sessionId: id, ...detail } }).catch(() => {});
    try {
      await reserveSession(this.ctx.db, { id, sn, staffId: who.id, staffName: who.username, nodeId: this.ctx.gateway.nodeId, cols, rows, ip: requestMeta(request).ip }, {
        perDevice: this.ctx.config.shellMaxPerDevice,
        perUser: this.ctx.config.shellMaxPerUser,
      });
    } catch (err) {
      const e = err instanceof AppError ? err : new AppError('FAILURE');
      await audit('failure', { error: e.key });
      this.fail(ws, request, e.key, e.params);
      return undefined;
    }
    const session = new LiveSession(this.ctx, id, sn, ws, request, { onBuffered: (d) => this.gaugeBuffered(d) }, (s) => {
      this.sessions.delete(s.id);
      this.tokens.delete(s.id);
    });
    this.sessions.set(id, session);
    this.tokens.set(id, token);
    try {
      await session.start(cols, rows);
    } catch (err) {
      this.sessions.delete(id);
      this.tokens.delete(id);
      await session.dispose();
      const [key, params, reason] = refusal(err, sn);
      await closeSession(this.ctx.db, id, { reason, message: err instanceof Error ? err.message.slice(0, 200) : '', bytesIn: 0, bytesOut: 0, recordedBytes: 0, recordTruncated: false });
      await audit('failure', { error: key, reason });
      this.fail(ws, request, key, params);
      return undefined;
    }
    await audit('success', { cols, rows });
    // The browser left while the device was still answering.
    if (ws.readyState !== ws.OPEN) await session.close('browser_gone');
    return session;
  }

  private gaugeBuffered(delta: number): void {
    this.buffered += delta;
    if (this.buffered > this.peak) this.peak = this.buffered;
  }

  private send(ws: WebSocket, msg: ShellServerMessage): void {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(msg));
  }

  /** Tells the browser why (in its language) and closes the socket. */
  private fail(ws: WebSocket, request: FastifyRequest, key: ErrorKey, params: ErrorParams = {}): void {
    this.send(ws, { type: 'error', code: errors[key].code, msg: errorMessage(key, localeOf(request), params) });
    if (ws.readyState === ws.OPEN) ws.close(4000 + (errors[key].http % 1000), key);
  }
}

/** Maps a failed `shell.open` to the error shown and the close reason stored. */
function refusal(err: unknown, sn: string): [ErrorKey, ErrorParams, 'refused' | 'device_offline'] {
  if (err instanceof CommandError) {
    if (err.reason === 'offline') return ['DEVICE_OFFLINE', { sn }, 'device_offline'];
    if (err.reason === 'timeout') return ['DEVICE_COMMAND_TIMEOUT', { sn, timeoutMs: err.timeoutMs }, 'refused'];
    if (err.reason === 'device') return ['SHELL_REFUSED', { detail: err.device?.message ?? err.device?.code ?? '' }, 'refused'];
    return ['GATEWAY_UNAVAILABLE', {}, 'refused'];
  }
  return ['FAILURE', {}, 'refused'];
}
