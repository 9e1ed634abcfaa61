import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Page, ShellRecording, ShellSession } from '@mowerline/contract';
import { systemLogs } from '../../src/system-log/system-log.sql.ts';
import type { TestServer } from '../harness.ts';
import { startDeviceServer, waitFor } from '../devices/fixtures.ts';
import { staffSession } from '../staff/fixtures.ts';
import { ShellClient, shellDevice } from './fixtures.ts';

/** Every frame of a recording, page by page, as the console's player fetches them. */
async function recording(server: TestServer, token: string, id: string) {
  const frames: ShellRecording['frames'] = [];
  let after = -1;
  for (;;) {
    const res = await server.api<ShellRecording>('GET', `/api/admin/device/shell/session/${id}/recording?after=${after}&limit=3`, { token });
    expect(res.body.code).toBe(0);
    frames.push(...res.body.data.frames);
    if (res.body.data.next === null) return { session: res.body.data.session, frames };
    after = res.body.data.next;
  }
}

describe('remote shell', () => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await startDeviceServer();
    admin = await server.login();
  });
  afterAll(() => server.close());

  it('round-trips commands through the broker, records the session and replays exactly what was shown', async () => {
    const device = await shellDevice(server);
    const { client, answer } = await ShellClient.open(server, admin, device.sn);
    expect(answer).toMatchObject({ type: 'opened', sn: device.sn });
    const sessionId = (answer as { sessionId: string }).sessionId;
    await client.waitForText('# ');
    client.type('status\r');
    await client.waitForText('activity');
    expect(client.text()).toContain('\x1b[32mmowing');
    expect(client.text()).toContain('73%');
    client.type('cd /etc\rcat hostname\r');
    await client.waitForText(device.sn.toLowerCase() + '\r\n');
    client.send({ type: 'resize', cols: 120, rows: 40 });
    client.type('config set cutting.height_mm 55\rconfig get cutting.height_mm\r');
    await client.waitForText('cutting.height_mm = 55');
    client.type('exit\r');
    expect(await client.next(['closed'])).toMatchObject({ type: 'closed', reason: 'exit' });
    await client.waitClosed();

    const list = await server.api<Page<ShellSession>>('GET', `/api/admin/device/shell/session?sn=${device.sn}`, { token: admin });
    expect(list.body.data.total).toBe(1);
    const [s] = list.body.data.list;
    expect(s).toMatchObject({ id: sessionId, sn: device.sn, staffName: 'admin', status: 'closed', closeReason: 'exit', bytesOut: client.bytes(), recordTruncated: false });
    expect(s!.bytesIn).toBe(Buffer.byteLength('status\rcd /etc\rcat hostname\rconfig set cutting.height_mm 55\rconfig get cutting.height_mm\rexit\r'));

    const { frames } = await recording(server, admin, sessionId);
    const shown = Buffer.concat(frames.filter((f) => f.kind === 'o').map((f) => Buffer.from(f.data, 'base64')));
    expect(shown.equals(client.output())).toBe(true);
    expect(frames.some((f) => f.kind === 'r' && Buffer.from(f.data, 'base64').toString() === '120x40')).toBe(true);
    expect(frames.map((f) => f.at)).toEqual([...frames.map((f) => f.at)].sort((a, b) => a - b));

    const audit = await server.ctx.db.select().from(systemLogs).where(and(eq(systemLogs.targetId, device.sn)));
    expect(audit.map((a) => a.action).sort()).toEqual(['device.shell.close', 'device.shell.open']);
    expect(audit.find((a) => a.action === 'device.shell.close')?.detail).toMatchObject({ sessionId, reason: 'exit' });
    await device.end();
  });

  it('tells the browser when the device disconnects mid-session', async () => {
    const device = await shellDevice(server);
    const { client } = await ShellClient.open(server, admin, device.sn);
    await client.waitForText('# ');
    // A dropped connection, not a clean disconnect: the broker publishes the device's will.
    device.client.stream.destroy();
    expect(await client.next(['closed'])).toMatchObject({ reason: 'device_offline' });
    await client.waitClosed();
    await device.client.endAsync(true);
  });

  it('passes the device refusal to the browser in its language', async () => {
    const device = await shellDevice(server, { refuse: () => 'firmware update in progress' });
    const { answer } = await ShellClient.open(server, admin, device.sn, 'zh-CN');
    expect(answer).toEqual({ type: 'error', code: 45003, msg: '设备拒绝打开终端：firmware update in progress' });
    const list = await server.api<Page<ShellSession>>('GET', `/api/admin/device/shell/session?sn=${device.sn}`, { token: admin });
    expect(list.body.data.list[0]).toMatchObject({ status: 'closed', closeReason: 'refused' });
    await device.end();
  });

  it('refuses role user on the REST API and on the socket, and unauthenticated sockets', async () => {
    const { token } = await staffSession(server, admin, 'shelloperator', 'user');
    const rest = await server.api('GET', '/api/admin/device/shell/session', { token, lang: 'en-US' });
    expect(rest.status).toBe(403);
    expect(rest.body).toMatchObject({ code: 40003, msg: 'You do not have permission to do this' });
    const recordingRes = await server.api('GET', '/api/admin/device/shell/session/AAAAAAAAAAAAAAAAAAAAAA/recording', { token });
    expect(recordingRes.status).toBe(403);

    const device = await shellDevice(server);
    const { client, answer } = await ShellClient.open(server, token, device.sn);
    expect(answer).toEqual({ type: 'error', code: 40003, msg: 'You do not have permission to do this' });
    expect(await client.waitClosed()).toBe(4403);

    const anonymous = await ShellClient.connect(server);
    anonymous.send({ type: 'open', sn: device.sn, cols: 80, rows: 24 });
    expect(await anonymous.next(['error'])).toMatchObject({ code: 45004 });
    const forged = await ShellClient.open(server, 'not-a-token', device.sn);
    expect(forged.answer).toMatchObject({ type: 'error', code: 50008 });
    await device.end();
  });

  it('ends a running session when its staff member signs out', async () => {
    const { token } = await staffSession(server, admin, 'shelladmin', 'admin');
    const device = await shellDevice(server);
    const { client, answer } = await ShellClient.open(server, token, device.sn);
    expect(answer.type).toBe('opened');
    expect((await server.api('POST', '/api/admin/user/logout', { token })).body.code).toBe(0);
    expect(await client.next(['closed'], 15_000)).toMatchObject({ reason: 'revoked' });
    await waitFor(() => device.host.openSessions() === 0, 5000, 'device session ended');
    await device.end();
  });

  it('lets an administrator terminate a session through the API', async () => {
    const device = await shellDevice(server);
    const { client, answer } = await ShellClient.open(server, admin, device.sn);
    const id = (answer as { sessionId: string }).sessionId;
    const res = await server.api('POST', `/api/admin/device/shell/session/${id}/close`, { token: admin });
    expect(res.body.code).toBe(0);
    expect(await client.next(['closed'])).toMatchObject({ reason: 'terminated' });
    await waitFor(() => device.host.openSessions() === 0, 5000, 'device session ended');
    const again = await server.api('POST', `/api/admin/device/shell/session/${id}/close`, { token: admin, lang: 'en-US' });
    expect(again.body).toMatchObject({ code: 45005 });
    await device.end();
  });
});
