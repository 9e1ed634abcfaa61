import { errors, shellApi, type ShellCloseReason, type ShellServerMessage } from '@mowerline/contract';
import { confirmStepUp } from '../api/second-factor-policy.ts';

export type ShellPhase = 'connecting' | 'opening' | 'open' | 'closed' | 'failed';

export interface ShellSocketEvents {
  onOutput(data: Uint8Array): void;
  onPhase(phase: ShellPhase, detail: { reason?: ShellCloseReason; message?: string; sessionId?: string }): void;
}

/** `http(s)://host` (or this page's origin) → the shell socket's `ws(s)://…` URL. */
export function shellSocketUrl(serverHost: string, location: { protocol: string; host: string }): string {
  const base = serverHost || `${location.protocol}//${location.host}`;
  return base.replace(/^http/, 'ws').replace(/\/$/, '') + shellApi.socket.path;
}

/**
 * The browser's end of one remote shell session: authenticates with the access token as the first
 * message (never in the URL), opens the shell on a device, and turns the server's frames into
 * output and phase changes. No DOM: the terminal component feeds it and renders what it reports.
 */
export class ShellSocket {
  private ws: WebSocket | undefined;
  private phase: ShellPhase = 'connecting';
  private steppedUp = false;
  sessionId: string | undefined;

  constructor(
    private readonly url: string,
    private readonly events: ShellSocketEvents,
    private readonly makeSocket: (url: string) => WebSocket = (u) => new WebSocket(u),
  ) {}

  connect(token: string, sn: string, cols: number, rows: number): void {
    const ws = this.makeSocket(this.url);
    this.ws = ws;
    ws.binaryType = 'arraybuffer';
    ws.onopen = () => ws.send(JSON.stringify({ type: 'auth', token }));
    ws.onmessage = (ev: MessageEvent) => {
      if (typeof ev.data !== 'string') return this.events.onOutput(new Uint8Array(ev.data as ArrayBuffer));
      const msg = JSON.parse(ev.data) as ShellServerMessage;
      if (msg.type === 'ready') {
        this.set('opening', {});
        ws.send(JSON.stringify({ type: 'open', sn, cols, rows }));
      } else if (msg.type === 'opened') {
        this.sessionId = msg.sessionId;
        this.set('open', { sessionId: msg.sessionId });
      } else if (msg.type === 'closed') this.set('closed', { reason: msg.reason, message: msg.message });
      else if (msg.code === errors.STEP_UP_REQUIRED.code && !this.steppedUp) {
        // A shell is a step-up action: confirm with the second factor (the same dialog as any
        // refused call), then authenticate again on a new socket.
        this.steppedUp = true;
        ws.onclose = null;
        ws.close();
        void confirmStepUp().then((ok) => (ok ? this.connect(token, sn, cols, rows) : this.set('failed', { message: msg.msg })));
      } else this.set('failed', { message: msg.msg });
    };
    ws.onclose = () => {
      if (this.phase !== 'closed' && this.phase !== 'failed') this.set('closed', { reason: 'browser_gone' });
    };
  }

  input(data: string): void {
    if (this.phase === 'open') this.send({ type: 'input', data });
  }

  resize(cols: number, rows: number): void {
    if (this.phase === 'open') this.send({ type: 'resize', cols, rows });
  }

  /** Ends the session (the server records `user`), or drops a socket still connecting. */
  close(): void {
    if (this.phase === 'open') this.send({ type: 'close' });
    else this.ws?.close();
  }

  private send(msg: object): void {
    if (this.ws?.readyState === 1) this.ws.send(JSON.stringify(msg));
  }

  private set(phase: ShellPhase, detail: Parameters<ShellSocketEvents['onPhase']>[1]): void {
    if (this.phase === 'closed' || this.phase === 'failed') return;
    this.phase = phase;
    this.events.onPhase(phase, detail);
  }
}

/** Input larger than one message (a big paste) is sent in pieces the server accepts. */
export function splitInput(data: string, max = 4096): string[] {
  const parts: string[] = [];
  let i = 0;
  while (i < data.length) {
    let end = Math.min(i + max, data.length);
    // Never cut an emoji (a surrogate pair) in two.
    if (end < data.length && /[\uDC00-\uDFFF]/.test(data[end]!)) end--;
    parts.push(data.slice(i, end));
    i = end;
  }
  return parts;
}
