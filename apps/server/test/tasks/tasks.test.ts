import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  deviceTopic,
  deviceTopics,
  encodePolyline,
  PROTOCOL_VERSION,
  type RunReport,
  type Schedule,
  type ScheduleConfig,
  type TaskDailyReport,
  type TaskRunDetail,
} from '@mowerline/contract';
import type { TestServer } from '../harness.ts';
import { clearRetained, connectDevice, createModel, registerSn, startDeviceServer, uniqueSn, waitFor, type TestDevice } from '../devices/fixtures.ts';
import { confirmedAppUser, createModelAndSn } from '../end-users/fixtures.ts';
import { applyRunReport } from '../../src/tasks/ingest.service.ts';
import { taskRollups, taskRuns } from '../../src/tasks/tasks.sql.ts';
import { dayStart } from '../../src/tasks/statistics.service.ts';

const cutting = { heightMm: 40, pattern: 'auto', edgeCut: true } as const;
const zonesReport = (ts = Date.now()) => ({
  v: PROTOCOL_VERSION,
  ts,
  zones: [
    { id: 'front', name: 'Front', polygon: [{ lat: 52.5, lng: 13.4 }, { lat: 52.5001, lng: 13.4 }, { lat: 52.5001, lng: 13.4001 }], areaM2: 120 },
    { id: 'back', name: 'Back', polygon: [{ lat: 52.5002, lng: 13.4 }, { lat: 52.5003, lng: 13.4 }, { lat: 52.5003, lng: 13.4001 }], areaM2: 300 },
  ],
});

describe('tasks: run reports, schedules and their sync, statistics', () => {
  let server: TestServer;
  let admin: string;
  let modelId: number;
  beforeAll(async () => {
    server = await startDeviceServer();
    admin = await server.login();
    modelId = await createModel(server, admin);
  });
  afterAll(async () => {
    await server.close();
    await clearRetained();
  });

  const ok = async <T>(res: Promise<{ body: { code: number; data: T } }>) => {
    const { body } = await res;
    expect(body.code, JSON.stringify(body)).toBe(0);
    return body.data;
  };
  async function deviceWithZones(): Promise<{ sn: string; secret: string; device: TestDevice }> {
    const sn = uniqueSn('TK');
    const secret = await registerSn(server, admin, sn, modelId);
    const device = await connectDevice(server, sn, secret);
    await device.publish(deviceTopics.zones, zonesReport());
    await waitFor(async () => (await server.ctx.db.select().from((await import('../../src/tasks/tasks.sql.ts')).taskZones).where(eq((await import('../../src/tasks/tasks.sql.ts')).taskZones.sn, sn))).length === 2, 10_000, 'zones');
    return { sn, secret, device };
  }

  it('applies run reports once per (SN, run, seq): redelivery and out-of-order arrival never duplicate or regress', async () => {
    const sn = uniqueSn('RUN');
    await registerSn(server, admin, sn, modelId);
    const t0 = Date.now() - 3600_000;
    const base = { v: PROTOCOL_VERSION, runId: 'run-0001-abc' } as const;
    const started: RunReport = { ...base, seq: 1, ts: t0, type: 'started', trigger: 'app', scheduleId: null, zones: ['front'], plannedAreaM2: 120, resumes: null };
    const progress: RunReport = { ...base, seq: 2, ts: t0 + 600_000, type: 'progress', percent: 50, areaM2: 60 };
    const paused: RunReport = { ...base, seq: 3, ts: t0 + 700_000, type: 'paused', reason: 'charging', battery: 12 };
    const resumed: RunReport = { ...base, seq: 4, ts: t0 + 1_900_000, type: 'resumed' };
    const path = encodePolyline([[52.5, 13.4], [52.5001, 13.4001]]);
    const ended: RunReport = { ...base, seq: 5, ts: t0 + 2_400_000, type: 'ended', result: 'completed', faultCode: null, areaM2: 121, durationS: 1800, bladeOnS: 1700, distanceM: 900, path };
    const db = server.ctx.db;
    // Out of order: the end first, then a stale progress, the start, a pause and a resume.
    expect(await applyRunReport(db, sn, ended)).toBe('applied');
    expect(await applyRunReport(db, sn, progress)).toBe('timeline');
    expect(await applyRunReport(db, sn, started)).toBe('applied');
    expect(await applyRunReport(db, sn, paused)).toBe('timeline');
    expect(await applyRunReport(db, sn, resumed)).toBe('timeline');
    // Redelivered: nothing changes.
    for (const r of [ended, progress, started, paused]) expect(await applyRunReport(db, sn, r)).toBe('duplicate');
    const runs = await db.select().from(taskRuns).where(eq(taskRuns.sn, sn));
    expect(runs).toHaveLength(1);
    const run = runs[0]!;
    expect(run).toMatchObject({ status: 'ended', result: 'completed', areaM2: 121, durationS: 1800, trigger: 'app', zones: ['front'], pauses: 1, lastSeq: 5, progressPercent: 100, path });
    // Its start moved to the start report's time, and the roll-up with it: counted once.
    expect(run.startedAt.getTime()).toBe(t0);
    const rollups = await db.select().from(taskRollups).where(and(eq(taskRollups.modelCode, run.modelCode)));
    expect(rollups.reduce((n, r) => n + r.runs, 0)).toBe(1);
    expect(rollups.reduce((n, r) => n + r.completed, 0)).toBe(1);
    const detail = await ok(server.api<TaskRunDetail>('GET', `/api/admin/task/run/${run.id}`, { token: admin }));
    expect(detail.events.map((e) => e.type)).toEqual(['started', 'progress', 'paused', 'resumed', 'ended']);

    // In order, the live state follows: paused for charging is not an end; an older progress does not regress.
    const live = { v: PROTOCOL_VERSION, runId: 'run-0002-abc' } as const;
    await applyRunReport(db, sn, { ...live, seq: 1, ts: t0, type: 'started', trigger: 'schedule', scheduleId: null, zones: [], plannedAreaM2: 400, resumes: null });
    await applyRunReport(db, sn, { ...live, seq: 3, ts: t0 + 2000, type: 'paused', reason: 'charging' });
    await applyRunReport(db, sn, { ...live, seq: 2, ts: t0 + 1000, type: 'progress', percent: 30, areaM2: 120 });
    const [second] = await db.select().from(taskRuns).where(and(eq(taskRuns.sn, sn), eq(taskRuns.runId, live.runId)));
    expect(second).toMatchObject({ status: 'paused', result: null, progressPercent: 30, lastSeq: 3 });
  });

  it('refuses overlapping slots, slots beyond a day and unknown zones; accepts back-to-back slots', async () => {
    const { sn, device } = await deviceWithZones();
    const create = (body: object) => server.api<Schedule>('POST', '/api/admin/task/schedule', { token: admin, body: { sn, cutting, ...body } });
    const first = await ok(create({ name: 'Mornings', slots: [{ weekday: 1, start: '08:00', end: '10:00' }, { weekday: 1, start: '10:00', end: '11:00' }], zones: ['front'] }));
    expect(first).toMatchObject({ sn, revision: 1, configRevision: 1 });
    const inner = await create({ name: 'Self', slots: [{ weekday: 2, start: '08:00', end: '10:00' }, { weekday: 2, start: '09:59', end: '11:00' }] });
    expect(inner.body.code).toBe(46002);
    const across = await create({ name: 'Other', slots: [{ weekday: 1, start: '10:30', end: '12:00' }] });
    expect(across.body.code).toBe(46002);
    const beyond = await create({ name: 'Night', slots: [{ weekday: 3, start: '23:00', end: '01:00' }] });
    expect(beyond.body.code).toBe(40000);
    const unknownZone = await create({ name: 'Side', slots: [{ weekday: 4, start: '08:00', end: '09:00' }], zones: ['side'] });
    expect(unknownZone.body.code).toBe(46003);
    // A disabled schedule may overlap; enabling it then is refused.
    const off = await ok(create({ name: 'Later', enabled: false, slots: [{ weekday: 1, start: '09:00', end: '12:00' }] }));
    expect((await server.api('POST', `/api/admin/task/schedule/${off.id}/enable`, { token: admin })).body).toMatchObject({ code: 46002 });
    // A stale revision is a conflict.
    const stale = await server.api('PUT', `/api/admin/task/schedule/${first.id}`, { token: admin, body: { name: 'x', slots: first.slots, zones: [], cutting, revision: 7 } });
    expect(stale.body).toMatchObject({ code: 46006 });
    await device.end();
  });

  it('keeps a schedule pending while the mower is offline and applies it after it reconnects', async () => {
    const { sn, secret, device } = await deviceWithZones();
    await device.end();
    const created = await ok(server.api<Schedule>('POST', '/api/admin/task/schedule', { token: admin, body: { sn, name: 'Evenings', slots: [{ weekday: 5, start: '18:00', end: '20:00' }], zones: [], cutting } }));
    expect(created.syncState).toBe('pending');

    // The mower comes back: it is sent the configuration and acknowledges it.
    const received: ScheduleConfig[] = [];
    const back = await connectDevice(server, sn, secret);
    back.client.on('message', (topic, payload) => {
      if (topic === deviceTopic(sn, deviceTopics.configSchedule)) {
        const config = JSON.parse(payload.toString()) as ScheduleConfig;
        received.push(config);
        void back.publish(deviceTopics.configAck, { v: PROTOCOL_VERSION, kind: 'schedule', rev: config.rev, ok: true, applied: config.rev });
      }
    });
    await back.client.subscribeAsync(deviceTopic(sn, deviceTopics.configSchedule), { qos: 1 });
    // Presence again so the server notices the (already subscribed) mower.
    await back.publish(deviceTopics.status, { v: PROTOCOL_VERSION, online: true, conn: back.conn, ts: Date.now() }, { retain: true });
    const applied = await waitFor(async () => {
      const s = await ok(server.api<Schedule>('GET', `/api/admin/task/schedule/${created.id}`, { token: admin }));
      return s.syncState === 'applied' ? s : undefined;
    }, 15_000, 'applied');
    expect(applied.appliedAt).not.toBeNull();
    expect(received[0]).toMatchObject({ rev: created.configRevision, schedules: [{ id: created.id, slots: created.slots }] });

    await back.end();
  });

  it('answers the daily report per viewer day across a DST change in two time zones', async () => {
    const db = server.ctx.db;
    const sn = uniqueSn('DST');
    await registerSn(server, admin, sn, modelId);
    // Europe/Berlin switched to summer time on 2025-03-30 02:00; America/New_York on 2025-03-09.
    const at = (iso: string) => Date.parse(iso);
    const runs = [
      // 2025-03-29 23:30 Berlin (22:30Z) and 2025-03-30 00:30 Berlin (23:30Z on the 29th, CET +1)
      at('2025-03-29T22:30:00Z'),
      at('2025-03-29T23:30:00Z'),
      // 2025-03-30 23:30 Berlin is 21:30Z (CEST +2): still the 30th in Berlin
      at('2025-03-30T21:30:00Z'),
      // 2025-03-31 00:15 Berlin (22:15Z on the 30th)
      at('2025-03-30T22:15:00Z'),
    ];
    let i = 0;
    for (const ts of runs) {
      await applyRunReport(db, sn, { v: PROTOCOL_VERSION, runId: `dst-run-${i++}-x`, seq: 1, ts, type: 'ended', result: i % 2 ? 'completed' : 'interrupted', faultCode: i % 2 ? null : 'STUCK', areaM2: 100, durationS: 1800, bladeOnS: 1700, distanceM: 500, path: '', startedAt: ts }, new Date(ts + 3600_000));
    }
    const report = async (start: string, end: string, tz: string) =>
      ok(server.api<TaskDailyReport>('GET', `/api/admin/statistics/task-daily-report?start_time=${Math.floor(dayStart(start, tz).getTime() / 1000)}&end_time=${Math.floor(dayStart(end, tz).getTime() / 1000) + 86_399}&tz=${encodeURIComponent(tz)}`, { token: admin }));
    const berlin = await report('2025-03-29', '2025-03-31', 'Europe/Berlin');
    expect(berlin.list.map((d) => [d.date, d.runs])).toEqual([
      ['2025-03-29', 1],
      ['2025-03-30', 2],
      ['2025-03-31', 1],
    ]);
    expect(berlin.list[1]).toMatchObject({ completed: 1, interrupted: 1, faults: 1, area: 200, hours: 1 });
    const ny = await report('2025-03-29', '2025-03-31', 'America/New_York');
    expect(ny.list.map((d) => [d.date, d.runs])).toEqual([
      ['2025-03-29', 2],
      ['2025-03-30', 2],
      ['2025-03-31', 0],
    ]);
    // New York's own change (2025-03-09, a 23-hour day): a run at 23:30 local lands on the 9th.
    await applyRunReport(db, sn, { v: PROTOCOL_VERSION, runId: 'dst-ny-1-x', seq: 1, ts: at('2025-03-10T03:30:00Z'), type: 'started', trigger: 'schedule', scheduleId: null, zones: [], plannedAreaM2: 1, resumes: null }, new Date(at('2025-03-10T03:30:00Z')));
    const nyChange = await report('2025-03-08', '2025-03-10', 'America/New_York');
    expect(nyChange.list.map((d) => [d.date, d.runs])).toEqual([
      ['2025-03-08', 0],
      ['2025-03-09', 1],
      ['2025-03-10', 0],
    ]);
    const wrong = await server.api('GET', `/api/admin/statistics/task-daily-report?start_time=200&end_time=100`, { token: admin });
    expect(wrong.body).toMatchObject({ code: 46007 });
  });
});

describe('tasks over the app API: owner and shared users, not strangers', () => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startDeviceServer();
    admin = await server.login();
  });
  afterAll(async () => {
    await server.close();
  });

  it('lets the owner and a shared user manage schedules, refuses others, and writes the user log', async () => {
    const owner = await confirmedAppUser(server, admin, { name: 'Owner' });
    const shared = await confirmedAppUser(server, admin, { name: 'Shared' });
    const stranger = await confirmedAppUser(server, admin, { name: 'Stranger' });
    const { sn, pairingCode } = await createModelAndSn(server, admin, uniqueSn('APP'));
    expect((await server.api('POST', '/api/app/v1/devices/bind', { token: owner.token, body: { sn, pairingCode } })).body).toMatchObject({ code: 0 });
    expect((await server.api('POST', `/api/app/v1/devices/${sn}/share`, { token: owner.token, body: { email: shared.email } })).body).toMatchObject({ code: 0 });
    const body = { name: 'Weekend', slots: [{ weekday: 6, start: '09:00', end: '11:00' }], zones: [], cutting };
    const created = await server.api<Schedule>('POST', `/api/app/v1/devices/${sn}/schedules`, { token: owner.token, body });
    expect(created.body).toMatchObject({ code: 0, data: { sn, updatedBy: { kind: 'app', name: owner.email }, ownerEmail: owner.email } });
    const id = created.body.data.id;
    const edited = await server.api<Schedule>('PUT', `/api/app/v1/devices/${sn}/schedules/${id}`, { token: shared.token, body: { ...body, name: 'Weekend mornings', revision: 1 } });
    expect(edited.body).toMatchObject({ code: 0, data: { name: 'Weekend mornings', revision: 2 } });
    expect((await server.api<Schedule[]>('GET', `/api/app/v1/devices/${sn}/schedules`, { token: shared.token })).body.data).toHaveLength(1);

    for (const [method, path, b] of [
      ['GET', `/api/app/v1/devices/${sn}/schedules`, undefined],
      ['POST', `/api/app/v1/devices/${sn}/schedules`, body],
      ['PUT', `/api/app/v1/devices/${sn}/schedules/${id}`, { ...body, revision: 2 }],
      ['DELETE', `/api/app/v1/devices/${sn}/schedules/${id}`, undefined],
      ['POST', `/api/app/v1/devices/${sn}/task/start`, { zones: [] }],
    ] as const) {
      const res = await server.api(method, path, { token: stranger.token, body: b });
      expect(res.body, `${method} ${path}`).toMatchObject({ code: 44022 });
    }
    // The mower is offline: a start is refused as such.
    expect((await server.api('POST', `/api/app/v1/devices/${sn}/task/start`, { token: owner.token, body: { zones: [] } })).body).toMatchObject({ code: 42008 });
    expect((await server.api('DELETE', `/api/app/v1/devices/${sn}/schedules/${id}`, { token: owner.token })).body).toMatchObject({ code: 0 });

    const log = await server.api<{ list: Array<{ action: string; result: string; sn: string }> }>('GET', `/api/admin/end-user/log?sn=${sn}&pageSize=50`, { token: admin });
    const actions = log.body.data.list.map((l) => `${l.action}:${l.result}`);
    expect(actions).toEqual(expect.arrayContaining(['schedule.create:success', 'schedule.update:success', 'schedule.delete:success', 'schedule.create:failure', 'task.command:failure']));
  });
});

describe('schedule sync across a server restart', () => {
  it('re-sends a configuration still pending to the mower after the server restarted', async () => {
    const first = await startDeviceServer({ keepDatabase: true });
    const admin = await first.login();
    const modelId = await createModel(first, admin);
    const sn = uniqueSn('RST');
    const secret = await registerSn(first, admin, sn, modelId);
    const created = await first.api<Schedule>('POST', '/api/admin/task/schedule', { token: admin, body: { sn, name: 'Daily', slots: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: '10:00', end: '12:00' })), zones: [], cutting } });
    expect(created.body.data.syncState).toBe('pending');
    const database = first.database;
    await first.close();

    const second = await startDeviceServer({ database });
    try {
      const device = await connectDevice(second, sn, secret, { announce: false });
      const configs: ScheduleConfig[] = [];
      device.client.on('message', (topic, payload) => {
        if (topic !== deviceTopic(sn, deviceTopics.configSchedule)) return;
        const config = JSON.parse(payload.toString()) as ScheduleConfig;
        configs.push(config);
        void device.publish(deviceTopics.configAck, { v: PROTOCOL_VERSION, kind: 'schedule', rev: config.rev, ok: true, applied: config.rev });
      });
      await device.client.subscribeAsync(deviceTopic(sn, deviceTopics.configSchedule), { qos: 1 });
      await device.publish(deviceTopics.status, { v: PROTOCOL_VERSION, online: true, conn: device.conn, ts: Date.now() }, { retain: true });
      const token = await second.login();
      await waitFor(async () => (await second.api<Schedule>('GET', `/api/admin/task/schedule/${created.body.data.id}`, { token })).body.data.syncState === 'applied', 15_000, 'applied after restart');
      expect(configs[0]).toMatchObject({ rev: 1, schedules: [{ id: created.body.data.id }] });
      // A refused revision is failed, with the mower's reason.
      device.client.removeAllListeners('message');
      device.client.on('message', (topic, payload) => {
        if (topic !== deviceTopic(sn, deviceTopics.configSchedule)) return;
        const config = JSON.parse(payload.toString()) as ScheduleConfig;
        void device.publish(deviceTopics.configAck, { v: PROTOCOL_VERSION, kind: 'schedule', rev: config.rev, ok: false, applied: config.rev - 1, error: { code: 'BAD_CONFIG', message: 'too many slots' } });
      });
      await second.api('POST', `/api/admin/task/schedule/${created.body.data.id}/disable`, { token });
      const failed = await waitFor(async () => {
        const s = (await second.api<Schedule>('GET', `/api/admin/task/schedule/${created.body.data.id}`, { token })).body.data;
        return s.syncState === 'failed' ? s : undefined;
      }, 15_000, 'failed');
      expect(failed.syncError).toContain('BAD_CONFIG');
      await device.end();
    } finally {
      await second.close();
      await clearRetained([sn]);
    }
  });
});
