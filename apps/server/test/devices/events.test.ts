import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { deviceTopics, messageKinds, type DeviceDetail, type DeviceEvent, type DeviceHistory, type EventCount, type OnlineStats } from '@mowerline/contract';
import { messages } from '../../src/messages/messages.sql.ts';
import { sampleOnline } from '../../src/gateway/maintenance.ts';
import { systemLogs } from '../../src/system-log/system-log.sql.ts';
import type { TestServer } from '../harness.ts';
import { connectDevice, createModel, EN, operatorToken, registerSn, startDeviceServer, uniqueSn, waitFor, type TestDevice } from './fixtures.ts';

type EventPage = { list: DeviceEvent[]; total: number; totalExact: boolean };

describe('exception events, device detail, statistics and commands', () => {
  let server: TestServer;
  let admin: string;
  let operator: string;
  let modelId: number;
  let sn: string;
  let device: TestDevice;
  let seq = 0;
  beforeAll(async () => {
    server = await startDeviceServer();
    admin = await server.login();
    operator = await operatorToken(server, admin);
    modelId = await createModel(server, admin);
    sn = uniqueSn('EV');
    device = await connectDevice(server, sn, await registerSn(server, admin, sn, modelId, { owner: 'eva@example.com' }));
  });
  afterAll(async () => {
    await device.end();
    await server.close();
  });

  const raise = (code: string, severity: string, extra: Record<string, unknown> = {}) =>
    device.publish(deviceTopics.events, { v: 1, id: `evt-${sn}-${++seq}`, ts: Date.now(), code, severity, message: `${code} happened`, context: { zone: 'front' }, ...extra });
  const events = async (query: string, token = operator, lang?: string) => (await server.api<EventPage>('GET', `/api/admin/device/event?${query}`, { token, lang })).body.data;
  const step = (what: 'ack' | 'clear', ids: number[], comment?: string, token = operator) =>
    server.api<{ updated: number[]; skipped: number[] }>('POST', `/api/admin/device/event/${what}`, { token, body: { ids, comment } });

  it('records events, folds repeats of an open event into it, and ignores redelivery', async () => {
    await raise('BLADE_BLOCKED', 'major');
    await raise('BLADE_BLOCKED', 'major');
    // The same message again (a QoS 1 redelivery): same id, not counted twice.
    await device.publish(deviceTopics.events, { v: 1, id: `evt-${sn}-${seq}`, ts: Date.now(), code: 'BLADE_BLOCKED', severity: 'major', message: 'again', context: {} });
    await raise('RAIN_DELAY', 'warning');
    const page = await waitFor(async () => {
      const p = await events(`sn=${sn}`, operator, EN);
      return p.total === 2 && p.list.find((e) => e.code === 'BLADE_BLOCKED')?.occurrences === 2 ? p : undefined;
    }, 10_000, 'events');
    const blade = page.list.find((e) => e.code === 'BLADE_BLOCKED')!;
    expect(blade).toMatchObject({ sn, severity: 'major', status: 'active', codeText: 'Blade blocked', context: {}, ackBy: null, clearedBy: null });
    expect(page.list.map((e) => e.code)).toEqual(['RAIN_DELAY', 'BLADE_BLOCKED']);
    expect((await events(`sn=${sn}&code=RAIN_DELAY`)).list[0]?.codeText).toBe('检测到雨水，暂停作业');
  });

  it('acknowledges then clears, with who, when and a comment; bulk, skipping what cannot move', async () => {
    const open = await events(`sn=${sn}&status=active`);
    const ids = open.list.map((e) => e.id);
    const ack = await step('ack', [ids[0]!], 'on my way');
    expect(ack.body.data).toEqual({ updated: [ids[0]], skipped: [] });
    // Acknowledging twice does nothing; unknown ids are skipped.
    const again = await step('ack', [ids[0]!, ids[1]!, 999_999]);
    expect(again.body.data).toEqual({ updated: [ids[1]], skipped: [ids[0], 999_999] });
    const acked = (await events(`sn=${sn}&status=acknowledged`)).list.find((e) => e.id === ids[0])!;
    expect(acked).toMatchObject({ status: 'acknowledged', ackComment: 'on my way' });
    expect(acked.ackBy).toMatch(/^op/);
    expect(Date.parse(acked.ackAt!)).toBeGreaterThan(0);
    const cleared = await step('clear', ids, 'blade cleaned', admin);
    expect(cleared.body.data.updated.sort()).toEqual([...ids].sort());
    const done = await events(`sn=${sn}&status=cleared`);
    expect(done.list.every((e) => e.clearedBy === 'admin' && e.clearComment === 'blade cleaned')).toBe(true);
    expect((await step('clear', ids)).body.data).toEqual({ updated: [], skipped: ids });
    const logs = await server.ctx.db.select().from(systemLogs).where(eq(systemLogs.action, 'device.event.clear'));
    expect(logs.some((l) => (l.detail as { comment?: string }).comment === 'blade cleaned')).toBe(true);
    expect((await step('ack', [])).status).toBe(400);
  });

  it('opens a new event when a cleared fault comes back, and counts per code', async () => {
    await raise('BLADE_BLOCKED', 'major');
    await waitFor(async () => (await events(`sn=${sn}&code=BLADE_BLOCKED`)).total === 2, 10_000, 'a second blade event');
    const counts = (await server.api<EventCount[]>('GET', '/api/admin/device/event/counts', { token: operator, lang: EN })).body.data;
    expect(counts.find((c) => c.code === 'BLADE_BLOCKED')).toEqual({ code: 'BLADE_BLOCKED', codeText: 'Blade blocked', severity: 'major', total: 2, active: 1, acknowledged: 0, cleared: 1 });
    expect(counts.find((c) => c.code === 'RAIN_DELAY')).toMatchObject({ total: 1, cleared: 1 });
  });

  // Issue 17: every staff member (operators too) hears about critical and major events by default,
  // folded per severity; the old admin-only "critical fault" notice is gone.
  it('notifies staff of a critical event through the message box, operators included', async () => {
    await raise('UPSIDE_DOWN', 'critical');
    const isCritical = sql`${messages.params}->>'severity' = 'critical'`;
    const rows = await waitFor(async () => {
      const found = await server.ctx.db.select().from(messages).where(and(eq(messages.kind, messageKinds.deviceEvents), isCritical));
      return found.length >= 2 ? found : undefined;
    }, 10_000, 'a notice for each staff member');
    expect(rows[0]).toMatchObject({ type: 'notice', params: { severity: 'critical', count: '1', sn, code: 'UPSIDE_DOWN', message: 'UPSIDE_DOWN happened' } });
    const list = await server.api<{ list: Array<{ title: string; content: string }> }>('GET', '/api/admin/message/list?type=notice', { token: admin, lang: EN });
    const critical = list.body.data.list.find((m) => m.title === '1 new critical event');
    // The catalogue's title in the reader's language; the device's own text labelled as such.
    expect(critical?.content).toContain(`Latest: device ${sn} reported "Mower is upside down" (UPSIDE_DOWN)`);
    expect(critical?.content).toContain('device message: UPSIDE_DOWN happened');
    const zh = await server.api<{ list: Array<{ title: string; content: string }> }>('GET', '/api/admin/message/list?type=notice', { token: admin, lang: 'zh-CN' });
    expect(zh.body.data.list.find((m) => m.title === '1 条新的严重事件')?.content).toContain('报告「割草机翻倒」（UPSIDE_DOWN），设备消息：UPSIDE_DOWN happened');
    const mine = await server.api<{ list: Array<{ title: string }> }>('GET', '/api/admin/message/list?type=notice', { token: operator, lang: EN });
    expect(mine.body.data.list.map((m) => m.title)).toContain('1 new critical event');
  });

  it('filters events by severity, status and time', async () => {
    expect((await events('severity=critical')).list.map((e) => e.code)).toEqual(['UPSIDE_DOWN']);
    expect((await events(`sn=${sn}&from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).total).toBe(0);
    const bad = await server.api('GET', '/api/admin/device/event?severity=fatal', { token: operator });
    expect(bad.status).toBe(400);
  });

  it('shows a device in detail: latest telemetry, recent events, owner', async () => {
    await device.telemetry({ battery: 64, state: 'error', activity: 'stopped_in_garden', errorCode: 'UPSIDE_DOWN', firmware: '1.4.0' });
    await waitFor(async () => (await server.api<DeviceDetail>('GET', `/api/admin/device/${sn}`, { token: operator })).body.data.battery === 64, 10_000, 'telemetry');
    const detail = (await server.api<DeviceDetail>('GET', `/api/admin/device/${sn.toLowerCase()}`, { token: operator, lang: EN })).body.data;
    expect(detail).toMatchObject({ sn, online: true, state: 'error', errorCode: 'UPSIDE_DOWN', firmware: '1.4.0', owner: 'eva@example.com', rssi: -60 });
    expect(detail.telemetryAt).not.toBeNull();
    expect(detail.recentEvents[0]).toMatchObject({ code: 'UPSIDE_DOWN', codeText: 'Mower is upside down' });
    const missing = await server.api('GET', `/api/admin/device/${uniqueSn()}`, { token: operator, lang: EN });
    expect(missing.body.code).toBe(42003);
  });

  it('gives a bucketed battery/state history for a chart', async () => {
    // Buckets are aligned to multiples of their size since the epoch.
    const base = Math.floor((Date.now() - 3_600_000) / 120_000) * 120_000;
    for (let i = 0; i < 6; i++) await device.telemetry({ ts: base + i * 60_000, battery: 90 - i, state: i < 4 ? 'mowing' : 'returning' });
    const url = `/api/admin/device/${sn}/history?from=${encodeURIComponent(new Date(base).toISOString())}&to=${encodeURIComponent(new Date(base + 1_200_000).toISOString())}&points=10`;
    const history = await waitFor(async () => {
      const h = (await server.api<DeviceHistory>('GET', url, { token: operator })).body.data;
      return h.points.reduce((n, p) => n + p.samples, 0) === 6 ? h : undefined;
    }, 10_000, 'six samples');
    expect(history.bucketSeconds).toBe(120);
    expect(history.points.map((p) => [p.battery, p.batteryMin, p.batteryMax, p.state, p.samples])).toEqual([
      [89.5, 89, 90, 'mowing', 2],
      [87.5, 87, 88, 'mowing', 2],
      [85.5, 85, 86, 'returning', 2],
    ]);
  });

  it('reports devices online now and the sampled series', async () => {
    await sampleOnline(server.ctx.db);
    const stats = (await server.api<OnlineStats>('GET', '/api/admin/statistics/online', { token: operator })).body.data;
    expect(stats).toMatchObject({ online: 1, total: 1, bucketSeconds: 360 });
    expect(stats.series.at(-1)).toMatchObject({ online: 1, total: 1 });
  });

  it('sends built-in commands to a device for administrators only', async () => {
    await device.client.subscribeAsync(`mowerline/v1/devices/${sn}/cmd/req`, { qos: 1 });
    device.client.on('message', (_t, payload) => {
      const req = JSON.parse(payload.toString()) as { id: string; name: string };
      if (req.name === 'ping') void device.publish(deviceTopics.cmdRes, { v: 1, id: req.id, ok: true, result: { pong: true, uptimeS: 5, firmware: '1.4.0' } });
    });
    const pong = await server.api<{ ok: boolean; result: unknown }>('POST', `/api/admin/device/${sn}/command`, { token: admin, body: { name: 'ping' } });
    expect(pong.body.data).toEqual({ ok: true, result: { pong: true, uptimeS: 5, firmware: '1.4.0' } });
    const slow = await server.api('POST', `/api/admin/device/${sn}/command`, { token: admin, body: { name: 'reboot', timeoutMs: 200 }, lang: EN });
    expect(slow.status).toBe(504);
    expect(slow.body.msg).toBe(`Device ${sn} did not answer within 200 ms`);
    const offlineSn = uniqueSn();
    await registerSn(server, admin, offlineSn, modelId);
    const offline = await server.api('POST', `/api/admin/device/${offlineSn}/command`, { token: admin, body: { name: 'ping' } });
    expect(offline.body).toMatchObject({ code: 42008, msg: `设备 ${offlineSn} 不在线` });
    expect((await server.api('POST', `/api/admin/device/${sn}/command`, { token: operator, body: { name: 'ping' } })).status).toBe(403);
    expect((await server.api('POST', `/api/admin/device/${sn}/command`, { token: admin, body: { name: 'shell' } })).status).toBe(400);
    const logs = await server.ctx.db.select().from(systemLogs).where(eq(systemLogs.action, 'device.command'));
    expect(logs.map((l) => l.result).sort()).toEqual(['failure', 'failure', 'success']);
  });
});
