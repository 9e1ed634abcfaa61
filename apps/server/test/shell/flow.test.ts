import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, shellTopic, type Page, type ShellSession, type ShellStats } from '@mowerline/contract';
import type { ShellIo, ShellProgram } from '../../../fleet-sim/src/shell/endpoint.ts';
import type { TestServer } from '../harness.ts';
import { startDeviceServer, waitFor } from '../devices/fixtures.ts';
import { ShellClient, shellDevice } from './fixtures.ts';

const BURST = 10 * 1024 * 1024;
const BLOCK = 64 * 1024;

/** Block `i` of the burst: recognisable, position-dependent bytes, so loss or reordering shows. */
function block(i: number): Buffer {
  const b = Buffer.alloc(BLOCK);
  for (let o = 0; o < BLOCK; o += 16) b.write(`${String(i).padStart(6, '0')}:${String(o).padStart(8, '0')}\n`, o, 'latin1');
  return b;
}

/** A device program that floods its terminal on `go`, writing while its own buffer is low. */
class Flood implements ShellProgram {
  private io!: ShellIo;
  start(io: ShellIo) {
    this.io = io;
  }
  input(data: Buffer) {
    if (!data.toString().includes('go')) return;
    let i = 0;
    const pump = () => {
      while (i < BURST / BLOCK && this.io.pendingBytes() < 1024 * 1024) this.io.write(block(i++));
      if (i < BURST / BLOCK) setTimeout(pump, 1);
    };
    pump();
  }
}

/** A device program that stays silent (the test speaks for the device). */
const silent = (): ShellProgram => ({ start() {}, input() {} });

describe('remote shell flow control', () => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await startDeviceServer();
    admin = await server.login();
  });
  afterAll(() => server.close());

  it('delivers a 10 MB burst whole and in order while the relay holds at most one window', async () => {
    const device = await shellDevice(server, { program: () => new Flood() });
    const { client, answer } = await ShellClient.open(server, admin, device.sn);
    expect(answer.type).toBe('opened');
    client.type('go');
    // A browser that stops reading for a while: the device must be paused, not buffered for.
    await waitFor(() => client.bytes() > 1024 * 1024, 20_000, 'first megabyte');
    client.ws.pause();
    await new Promise((r) => setTimeout(r, 500));
    client.ws.resume();
    await waitFor(() => client.bytes() >= BURST, 60_000, '10 MB');
    const expected = Buffer.concat(Array.from({ length: BURST / BLOCK }, (_, i) => block(i)));
    expect(client.output().equals(expected)).toBe(true);

    const stats = await server.api<ShellStats>('GET', '/api/admin/device/shell/stats', { token: admin });
    expect(stats.body.data.peakBufferedBytes).toBeGreaterThan(0);
    expect(stats.body.data.peakBufferedBytes).toBeLessThanOrEqual(stats.body.data.windowBytes);
    client.send({ type: 'close' });
    expect(await client.next(['closed'])).toMatchObject({ reason: 'user' });
    const list = await server.api<Page<ShellSession>>('GET', `/api/admin/device/shell/session?sn=${device.sn}`, { token: admin });
    expect(list.body.data.list[0]).toMatchObject({ bytesOut: BURST, closeReason: 'user', recordTruncated: false });
    await waitFor(() => device.host.openSessions() === 0, 5000, 'device session ended');
    await device.end();
  }, 120_000);

  it('cuts off a device that sends output out of order', async () => {
    const device = await shellDevice(server, { program: silent });
    const { client, answer } = await ShellClient.open(server, admin, device.sn);
    const sid = (answer as { sessionId: string }).sessionId;
    const out = (msg: object) => device.client.publishAsync(shellTopic(device.sn, sid, 'out'), JSON.stringify({ v: PROTOCOL_VERSION, ...msg }), { qos: 1 });
    await out({ t: 'data', seq: 0, off: 0, data: Buffer.from('hello').toString('base64') });
    await out({ t: 'data', seq: 1, off: 0, data: Buffer.from('hello').toString('base64') });
    await out({ t: 'data', seq: 2, off: 4096, data: Buffer.from('skipped ahead').toString('base64') });
    expect(await client.next(['closed'])).toMatchObject({ reason: 'flow_violation' });
    // The redelivered chunk was shown once, and the device was told to end its side.
    expect(client.text()).toBe('hello');
    await waitFor(() => device.host.openSessions() === 0, 5000, 'device session ended');
    await device.end();
  });
});

describe('remote shell limits and timeouts', () => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await startDeviceServer({ config: { shellMaxPerDevice: 1, shellMaxPerUser: 2, shellIdleMs: 400, shellMaxMs: 1500 } });
    admin = await server.login();
  });
  afterAll(() => server.close());

  it('enforces the per-device and per-user limits', async () => {
    const [a, b, c] = await Promise.all([shellDevice(server), shellDevice(server), shellDevice(server)]);
    const first = await ShellClient.open(server, admin, a!.sn);
    expect(first.answer.type).toBe('opened');
    const again = await ShellClient.open(server, admin, a!.sn);
    expect(again.answer).toEqual({ type: 'error', code: 45001, msg: `Device ${a!.sn} already has the maximum of 1 shell sessions` });
    const second = await ShellClient.open(server, admin, b!.sn);
    expect(second.answer.type).toBe('opened');
    const third = await ShellClient.open(server, admin, c!.sn);
    expect(third.answer).toEqual({ type: 'error', code: 45002, msg: 'You already have the maximum of 2 open shell sessions' });
    // A freed slot can be used again.
    first.client.send({ type: 'close' });
    await first.client.next(['closed']);
    const fourth = await ShellClient.open(server, admin, a!.sn);
    expect(fourth.answer.type).toBe('opened');
    await Promise.all([second.client, fourth.client].map((s) => s.next(['closed'])));
    await Promise.all([a, b, c].map((d) => d!.end()));
  });

  it('closes an idle session and one that reaches the maximum duration', async () => {
    const device = await shellDevice(server, { maxSessions: 2 });
    const idle = await ShellClient.open(server, admin, device.sn);
    expect(await idle.client.next(['closed'])).toMatchObject({ reason: 'idle' });
    await waitFor(() => device.host.openSessions() === 0, 5000, 'device session ended');

    const busy = await ShellClient.open(server, admin, device.sn);
    const typing = setInterval(() => busy.client.type('uptime\r'), 100);
    const closed = await busy.client.next(['closed'], 5000);
    clearInterval(typing);
    expect(closed).toMatchObject({ reason: 'max_duration' });
    await device.end();
  });
});
