import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, type ShellOpenArgs, type ShellUp } from '@mowerline/contract';
import { ShellEndpoint, type ShellIo } from '../src/shell/endpoint.ts';
import { MowerShell } from '../src/shell/mower-shell.ts';
import { MowerSettings, type MowerView } from '../src/shell/mower-view.ts';

/** Removes colour codes (ESC [ … letter). */
const ansi = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, 'g');
const strip = (s: string) => s.replace(ansi, '');

function mower(reboots: number[] = []): MowerView {
  return {
    sn: 'ML-TEST-0001',
    model: 'Mowerline M1',
    firmware: () => '2.1.0',
    telemetry: () => ({ state: 'charging', activity: 'charging', battery: 41, charging: true, position: null, bladeRpm: 0, rssi: -70, errorCode: null }),
    uptimeS: () => 90_061,
    logs: () => ['line 1', 'line 2', 'line 3'],
    settings: new MowerSettings(),
    reboot: (ms) => reboots.push(ms),
    ota: () => ({ state: 'downloading', version: '2.2.0', progress: 35 }),
  };
}

/** Runs the shell on a plain in-memory terminal. */
function run(m = mower()) {
  let out = '';
  let exited: string | undefined;
  const io: ShellIo = { write: (d) => void (out += d.toString()), exit: (r) => void (exited = r), pendingBytes: () => 0, cols: 80, rows: 24 };
  const shell = new MowerShell(m, 'admin');
  shell.start(io);
  return {
    type: (s: string) => {
      out = '';
      shell.input(Buffer.from(s));
      return strip(out);
    },
    exited: () => exited,
  };
}

describe('mower shell', () => {
  it('answers from the mower state and its settings', () => {
    const sh = run();
    expect(sh.type('status\r')).toMatch(/state\s+charging[\s\S]*battery\s+\S+ 41% \(charging\)/);
    expect(sh.type('gps\r')).toContain('no position fix');
    expect(sh.type('uptime\r')).toContain('up 1d 1h 1m 1s');
    expect(sh.type('ota status\r')).toMatch(/update\s+downloading[\s\S]*target\s+2\.2\.0[\s\S]*progress\s+35%/);
    expect(sh.type('logs -n 2\r')).toContain('line 2\r\nline 3');
    expect(sh.type('config set cutting.height_mm 90\r')).toContain('expected integer 20–60 mm');
    expect(sh.type('config set cutting.height_mm 35\r')).toContain('cutting.height_mm = 35');
    expect(sh.type('cat /etc/mower.conf\r')).toContain('cutting.height_mm = 35');
    expect(sh.type('dance\r')).toContain('dance: command not found');
  });

  it('walks its virtual file system and nothing else', () => {
    const sh = run();
    expect(sh.type('pwd\r')).toContain('/home/root');
    expect(sh.type('cd ../../etc\rpwd\r')).toContain('/etc\r\n');
    expect(sh.type('ls\r')).toContain('hostname  mower.conf  os-release');
    expect(sh.type('cat hostname\r')).toContain('ml-test-0001');
    expect(sh.type('cat /etc/passwd\r')).toContain('no such file or directory');
    expect(sh.type('cd /proc/uptime\r')).toContain('not a directory');
  });

  it('edits the line: backspace, Ctrl-C, history, and exits on Ctrl-D', () => {
    const sh = run();
    expect(sh.type('uptimX\x7fe\r')).toContain('up 1d');
    expect(sh.type('abc\x03')).toContain('^C');
    expect(sh.type('\x1b[A\r')).toContain('up 1d');
    sh.type('\x04');
    expect(sh.exited()).toBe('exit');
  });

  it('reboots the mower and ends the session', () => {
    const reboots: number[] = [];
    const sh = run(mower(reboots));
    expect(sh.type('reboot\r')).toContain('Rebooting');
    expect(reboots).toEqual([500]);
    expect(sh.exited()).toBe('exit');
  });
});

describe('device shell endpoint', () => {
  const args: ShellOpenArgs = { sessionId: 'abcdefghijklmnop', cols: 80, rows: 24, window: 16 * 1024, idleMs: 60_000, maxMs: 60_000, user: 'admin' };

  it('sends output only within its credit and drops repeated input', async () => {
    const sent: ShellUp[] = [];
    const inputs: string[] = [];
    let io!: ShellIo;
    const ep = new ShellEndpoint('abcdefghijklmnop', args, (m) => sent.push(m), { start: (i) => void (io = i), input: (d) => void inputs.push(d.toString()) }, () => {});
    ep.start();
    io.write(Buffer.alloc(40 * 1024, 'x'));
    await new Promise((r) => setImmediate(r));
    const offsets = () => sent.filter((m) => m.t === 'data').map((m) => (m.t === 'data' ? [m.off, Buffer.from(m.data, 'base64').length] : []));
    expect(offsets()).toEqual([[0, 16 * 1024]]);
    expect(io.pendingBytes()).toBe(24 * 1024);
    ep.receive(Buffer.from(JSON.stringify({ v: PROTOCOL_VERSION, t: 'credit', seq: 0, upTo: 48 * 1024 })));
    expect(offsets()).toEqual([[0, 16384], [16384, 16384], [32768, 8192]]);
    const data = Buffer.from(JSON.stringify({ v: PROTOCOL_VERSION, t: 'data', seq: 1, data: Buffer.from('ls\r').toString('base64') }));
    ep.receive(data);
    ep.receive(data);
    expect(inputs).toEqual(['ls\r']);
    expect(sent.map((m) => m.seq)).toEqual([0, 1, 2]);
    ep.receive(Buffer.from(JSON.stringify({ v: PROTOCOL_VERSION, t: 'close', seq: 2, reason: 'user' })));
    io.write('after the end');
    await new Promise((r) => setImmediate(r));
    expect(sent).toHaveLength(3);
  });
});
