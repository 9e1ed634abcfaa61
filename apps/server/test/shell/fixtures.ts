import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import WebSocket from 'ws';
import { SHELL_WS_PATH, type ShellClientMessage, type ShellServerMessage } from '@mowerline/contract';
import { MowerSettings, type MowerView } from '../../../fleet-sim/src/shell/mower-view.ts';
import { ShellHost, type ShellHostOptions } from '../../../fleet-sim/src/shell/host.ts';
import { attachShell, mqttShellTransport } from '../../../fleet-sim/src/shell/attach.ts';
import { MowerShell } from '../../../fleet-sim/src/shell/mower-shell.ts';
import { deviceState, devices } from '../../src/devices/devices.sql.ts';
import { generateSecret, hashSecret } from '../../src/gateway/device-credentials.ts';
import { productModels } from '../../src/product/product.sql.ts';
import type { TestServer } from '../harness.ts';
import { connectDevice, uniqueSn, waitFor, type TestDevice } from '../devices/fixtures.ts';

/** Registers an SN straight in the registry (the SN API is another suite's subject). */
export async function registerDevice(server: TestServer, sn = uniqueSn('SH')): Promise<{ sn: string; secret: string }> {
  const db = server.ctx.db;
  const code = 'SHELL-TEST';
  await db.insert(productModels).values({ code, name: 'Shell test mower' }).onConflictDoNothing();
  const [model] = await db.select({ id: productModels.id }).from(productModels).where(eq(productModels.code, code));
  if (!model) throw new Error('no product model');
  const secret = generateSecret();
  await db.insert(devices).values({ sn, modelId: model.id, ...hashSecret(secret) });
  return { sn, secret };
}

/** A mower's state for the shell to read: what a simulated mower would report at one moment. */
export function mowerState(sn: string, onReboot: () => void = () => {}): MowerView {
  const log = ['2026-01-01T08:00:00Z boot: MowerOS 1.4.2', '2026-01-01T08:00:05Z gnss: RTK fix', '2026-01-01T08:01:00Z mowing: zone front'];
  return {
    sn,
    model: 'Shell test mower',
    firmware: () => '1.4.2',
    telemetry: () => ({ state: 'mowing', activity: 'mowing', battery: 73, charging: false, position: { lat: 59.3293, lng: 18.0686, heading: 92.5 }, bladeRpm: 3100, rssi: -67, errorCode: null }),
    uptimeS: () => 3725,
    logs: () => log,
    settings: new MowerSettings(),
    reboot: onReboot,
    ota: () => ({ state: 'idle', version: null, progress: null }),
  };
}

export interface ShellDevice extends TestDevice {
  host: ShellHost;
}

/** A registered, connected, online device with a shell host (the mower shell unless `program`). */
export async function shellDevice(server: TestServer, opts: Partial<ShellHostOptions> & { sn?: string } = {}): Promise<ShellDevice> {
  const { sn, secret } = await registerDevice(server, opts.sn);
  const device = await connectDevice(server, sn, secret);
  const host = new ShellHost(sn, mqttShellTransport(device.client), { program: (args) => new MowerShell(mowerState(sn), args.user), ...opts });
  await attachShell(device.client, host);
  await waitFor(async () => {
    await server.ctx.gateway.flush();
    const [row] = await server.ctx.db.select({ online: deviceState.online }).from(deviceState).where(eq(deviceState.sn, sn));
    return row?.online;
  }, 10_000, `${sn} online`);
  return { ...device, host };
}

/** The browser's side of a shell socket, as a test drives it. */
export class ShellClient {
  readonly messages: ShellServerMessage[] = [];
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private closedCode: number | undefined;
  private readonly closed: Promise<number>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const buf = Buffer.isBuffer(data) ? data : Buffer.concat(data as Buffer[]);
      if (isBinary) {
        this.chunks.push(buf);
        this.size += buf.length;
      } else this.messages.push(JSON.parse(buf.toString()) as ShellServerMessage);
    });
    this.closed = new Promise((resolve) => ws.on('close', (code) => resolve((this.closedCode = code))));
  }

  static async connect(server: TestServer, lang = 'en-US'): Promise<ShellClient> {
    const ws = new WebSocket(server.url.replace('http', 'ws') + SHELL_WS_PATH, { headers: { 'accept-language': lang } });
    await new Promise<void>((resolve, reject) => ws.once('open', resolve).once('error', reject));
    return new ShellClient(ws);
  }

  /** Authenticates and opens a shell on `sn`; resolves with the first answer (`opened` or `error`). */
  static async open(server: TestServer, token: string, sn: string, lang = 'en-US'): Promise<{ client: ShellClient; answer: ShellServerMessage }> {
    const client = await ShellClient.connect(server, lang);
    client.send({ type: 'auth', token });
    const ready = await client.next(['ready', 'error']);
    if (ready.type === 'error') return { client, answer: ready };
    client.send({ type: 'open', sn, cols: 80, rows: 24 });
    return { client, answer: await client.next(['opened', 'error']) };
  }

  send(msg: ShellClientMessage): void {
    this.ws.send(JSON.stringify(msg));
  }

  type(text: string): void {
    this.send({ type: 'input', data: text });
  }

  output(): Buffer {
    return Buffer.concat(this.chunks, this.size);
  }

  text(): string {
    return this.output().toString('utf8');
  }

  bytes(): number {
    return this.size;
  }

  async next<T extends ShellServerMessage['type']>(types: T[], timeoutMs = 10_000): Promise<Extract<ShellServerMessage, { type: T }>> {
    const found = await waitFor(() => this.messages.find((m) => (types as string[]).includes(m.type)), timeoutMs, `message ${types.join('/')}`);
    this.messages.splice(this.messages.indexOf(found), 1);
    return found as Extract<ShellServerMessage, { type: T }>;
  }

  async waitForText(text: string | RegExp, timeoutMs = 10_000): Promise<void> {
    await waitFor(() => (typeof text === 'string' ? this.text().includes(text) : text.test(this.text())), timeoutMs, `output "${text}"`);
  }

  waitClosed(): Promise<number> {
    return this.closedCode !== undefined ? Promise.resolve(this.closedCode) : this.closed;
  }
}

export const randomText = (n: number) => randomBytes(n).toString('hex').slice(0, n);
