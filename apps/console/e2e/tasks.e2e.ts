import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceTopic, deviceTopics, encodePolyline, taskCommands, type CommandRequest, PROTOCOL_VERSION, type RunPage, type RunReport, type Schedule, type ScheduleConfig, type TaskRun } from '@mowerline/contract';
import type { TestServer } from '../../server/test/harness.ts';
import { connectDevice, createModel, waitFor, type TestDevice } from '../../server/test/devices/fixtures.ts';
import { appUserId, launchBrowser, startConsoleServer } from './harness.ts';
import { confirmPopup, openSignedIn, row, SETTLE, toast, untranslatedKeys, type Opened } from './pages.helpers.ts';

const PASSWORD = 'Mow3r#Garden8';
const A = 'E2E-TSK-0001';
const B = 'E2E-TSK-0002';
const UNKNOWN = 'GRASS_TANGLE_X9';
const cutting = { heightMm: 45, pattern: 'stripes', edgeCut: true } as const;

/** Two zones of a Berlin garden, and a path that zig-zags through the front one. */
const zones = (lat: number) => ({
  v: PROTOCOL_VERSION,
  ts: Date.now(),
  zones: [
    { id: 'front', name: 'Front lawn', polygon: [{ lat, lng: 13.4 }, { lat, lng: 13.4004 }, { lat: lat + 0.0003, lng: 13.4004 }, { lat: lat + 0.0003, lng: 13.4 }], areaM2: 900 },
    { id: 'back', name: 'Back lawn', polygon: [{ lat: lat + 0.0004, lng: 13.4 }, { lat: lat + 0.0004, lng: 13.4004 }, { lat: lat + 0.0007, lng: 13.4004 }, { lat: lat + 0.0007, lng: 13.4 }], areaM2: 850 },
  ],
});
const zigzag = (lat: number) =>
  encodePolyline(Array.from({ length: 12 }, (_, i) => [lat + 0.00002 + i * 0.000022, i % 2 ? 13.40037 : 13.40003] as [number, number]));

/** A body row of the table `scope` is (the test id sits on the table itself, so `row()` does not reach it). */
const tableRow = (scope: Locator, text: string) => scope.locator('tbody tr.arco-table-tr').filter({ hasText: text });

async function shot(page: Page, name: string): Promise<void> {
  if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/${name}.png`, fullPage: true });
}

/**
 * The four /task pages against a real server, fed by two mowers over MQTT the way the protocol
 * says: zones, schedule configuration acknowledged by one mower (the other stays pending), and
 * run reports — a scheduled run paused to charge, a run ended by a fault and resumed, a run ended
 * by a code the catalogue does not know, and one still running.
 */
describe('task overview, schedules, records and task faults against the real server', () => {
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let admin: string;
  const mowers: TestDevice[] = [];
  let mornings: Schedule;
  let evenings: Schedule;
  const runIds = new Map<string, number>();

  const ok = async <T>(res: Promise<{ body: { code: number; data: T } }>): Promise<T> => {
    const { body } = await res;
    if (body.code !== 0) throw new Error(JSON.stringify(body));
    return body.data;
  };
  const schedule = async (id: number) => ok(server.api<Schedule>('GET', `/api/admin/task/schedule/${id}`, { token: admin }));

  const mower = async (modelId: number, sn: string, firmware: string, lat: number, ack: boolean) => {
    const { secret, pairingCode } = await ok(server.api<{ secret: string; pairingCode: string }>('POST', '/api/admin/product/sn', { token: admin, body: { sn, modelId } }));
    const device = await connectDevice(server, sn, secret);
    mowers.push(device);
    if (ack) {
      device.client.on('message', (topic, payload) => {
        if (topic !== deviceTopic(sn, deviceTopics.configSchedule)) return;
        const config = JSON.parse(payload.toString()) as ScheduleConfig;
        void device.publish(deviceTopics.configAck, { v: PROTOCOL_VERSION, kind: 'schedule', rev: config.rev, ok: true, applied: config.rev });
      });
      await device.client.subscribeAsync(deviceTopic(sn, deviceTopics.configSchedule), { qos: 1 });
    }
    await device.telemetry({ firmware, position: { lat, lng: 13.4002, heading: 0 } });
    await device.publish(deviceTopics.zones, zones(lat));
    await waitFor(async () => (await server.api<{ firmware: string | null }>('GET', `/api/admin/device/${sn}`, { token: admin })).body.data?.firmware === firmware, 20_000, `${sn} firmware`);
    await waitFor(async () => (await server.api<{ zones: unknown[] }>('GET', `/api/admin/task/zones/${sn}`, { token: admin })).body.data?.zones?.length === 2, 20_000, `${sn} zones`);
    return { device, pairingCode };
  };

  /** One run's reports, in order, `minutesAgo` after its start. */
  /** Each run's start time: how many fall on the viewer's today depends on the hour the suite runs at. */
  const startedAt: number[] = [];
  const report = async (device: TestDevice, runId: string, reports: Array<Record<string, unknown> & { type: RunReport['type'] }>, startMinutesAgo: number) => {
    let seq = 0;
    for (const r of reports) {
      seq += 1;
      const ts = Date.now() - (startMinutesAgo - seq) * 60_000;
      if (r.type === 'started') startedAt.push(ts);
      await device.publish(deviceTopics.runs, { v: PROTOCOL_VERSION, runId, seq, ts, ...r });
    }
  };

  beforeAll(async () => {
    server = await startConsoleServer({ telemetryFlushMs: 50 });
    browser = await launchBrowser();
    admin = await server.login();
    const modelId = await createModel(server, admin, 'MLT1');
    const { device: a, pairingCode } = await mower(modelId, A, '1.4.0', 52.52, true);
    const { device: b } = await mower(modelId, B, '1.3.2', 52.53, false);

    // Ann owns mower A (the owner column and filter).
    await ok(server.api('POST', '/api/app/v1/user/register', { body: { email: 'ann.tasks@example.com', password: PASSWORD, name: 'Ann', country: 'DE', city: 'Berlin', locale: 'en-US', timeZone: 'Europe/Berlin' } }));
    await ok(server.api('POST', `/api/admin/end-user/${await appUserId(server, 'ann.tasks@example.com')}/confirm`, { token: admin }));
    const login = await ok(server.api<{ access_token: string }>('POST', '/api/app/v1/user/login', { body: { email: 'ann.tasks@example.com', password: PASSWORD } }));
    await ok(server.api('POST', '/api/app/v1/devices/bind', { token: login.access_token, body: { sn: A, pairingCode } }));

    mornings = await ok(server.api<Schedule>('POST', '/api/admin/task/schedule', { token: admin, body: { sn: A, name: 'Weekday mornings', slots: [{ weekday: 1, start: '08:00', end: '10:00' }, { weekday: 1, start: '14:00', end: '16:00' }, { weekday: 3, start: '08:00', end: '10:00' }], zones: ['front'], cutting } }));
    evenings = await ok(server.api<Schedule>('POST', '/api/admin/task/schedule', { token: admin, body: { sn: B, name: 'Evenings', slots: [{ weekday: 5, start: '18:00', end: '20:00' }], zones: [], cutting } }));
    await waitFor(async () => (await schedule(mornings.id)).syncState === 'applied', 20_000, 'mower A applies its schedule');

    // A scheduled run that pauses to charge mid-run and completes.
    await report(a, 'run-a-0001', [
      { type: 'started', trigger: 'schedule', scheduleId: mornings.id, zones: ['front'], plannedAreaM2: 900, resumes: null },
      { type: 'progress', percent: 40, areaM2: 360 },
      { type: 'paused', reason: 'charging', battery: 15 },
      { type: 'resumed' },
      { type: 'ended', result: 'completed', faultCode: null, areaM2: 905, durationS: 2400, bladeOnS: 2300, distanceM: 1500, path: zigzag(52.52) },
    ], 120);
    // An app run ended by a blocked blade, then resumed to completion.
    await report(a, 'run-a-0002', [
      { type: 'started', trigger: 'app', scheduleId: null, zones: ['back'], plannedAreaM2: 850, resumes: null },
      { type: 'ended', result: 'interrupted', faultCode: 'BLADE_BLOCKED', areaM2: 300, durationS: 900, bladeOnS: 880, distanceM: 500, path: zigzag(52.5204) },
    ], 60);
    await report(a, 'run-a-0003', [
      { type: 'started', trigger: 'resume', scheduleId: null, zones: ['back'], plannedAreaM2: 550, resumes: 'run-a-0002' },
      { type: 'ended', result: 'completed', faultCode: null, areaM2: 560, durationS: 1300, bladeOnS: 1250, distanceM: 800, path: zigzag(52.5204) },
    ], 40);
    // Mower B: a console run ended by a code the catalogue does not know, and one running now.
    await report(b, 'run-b-0001', [
      { type: 'started', trigger: 'console', scheduleId: null, zones: [], plannedAreaM2: 1750, resumes: null },
      { type: 'ended', result: 'failed', faultCode: UNKNOWN, areaM2: 120, durationS: 300, bladeOnS: 290, distanceM: 150, path: zigzag(52.53) },
    ], 90);
    await report(b, 'run-b-0002', [
      { type: 'started', trigger: 'schedule', scheduleId: evenings.id, zones: [], plannedAreaM2: 1750, resumes: null },
      { type: 'progress', percent: 20, areaM2: 350 },
    ], 10);
    const page = await waitFor(async () => {
      const res = await server.api<RunPage>('GET', '/api/admin/task/run?pageSize=50', { token: admin });
      const list = res.body.data?.list ?? [];
      const resumed = list.find((r) => r.runId === 'run-a-0003');
      return list.length === 5 && list.filter((r) => r.status === 'ended').length === 4 && resumed?.resumesId ? list : undefined;
    }, 30_000, 'five runs ingested');
    for (const r of page as TaskRun[]) runIds.set(r.runId, r.id);
  });

  afterAll(async () => {
    for (const m of mowers) if (m.client.connected) await m.end();
    await browser?.cleanup();
    await server?.close();
  });

  describe('en-US, dark', () => {
    let session: Opened;
    beforeAll(async () => {
      session = await openSignedIn(browser, server, '/dashboard/workplace', { locale: 'en-US', theme: 'dark' });
    });
    afterAll(async () => {
      await session?.context.close();
    });

    it('overview: cards, split by model and firmware, and the 30-day daily report asked for exactly the spec window', async () => {
      const { page } = session;
      // The viewer's 30-day window, read before the page asks and again after it has: the two differ
      // only when midnight passed in between, and then the page's request matches one of them.
      const windowNow = () =>
        page.evaluate(() => {
          const now = new Date();
          return {
            start: Math.floor(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 30).getTime() / 1000),
            end: Math.floor(new Date(now.getFullYear(), now.getMonth(), now.getDate(), 23, 59, 59).getTime() / 1000),
            tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
          };
        });
      const startedToday = () =>
        page.evaluate((starts) => {
          const now = new Date();
          const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
          return String(starts.filter((t) => t >= midnight).length);
        }, startedAt);
      const before = await windowNow();
      const todayBefore = await startedToday();
      const asked = page.waitForRequest((r) => r.url().includes('/api/admin/statistics/task-daily-report'));
      await page.goto(`${server.url}/#/task/task-overview`);
      const url = new URL((await asked).url());
      const after = await windowNow();
      const sent = { start: Number(url.searchParams.get('start_time')), end: Number(url.searchParams.get('end_time')), tz: url.searchParams.get('tz') };
      expect([before, after]).toContainEqual(sent);

      expect(await page.evaluate(() => document.body.getAttribute('arco-theme'))).toBe('dark');
      // Today's runs, counted by the server when it answered: read on both sides of that, as above.
      await page.locator('[data-testid=task-card-runs-today] .task-card-value').waitFor();
      expect([todayBefore, await startedToday()]).toContain(await page.locator('[data-testid=task-card-runs-today] .task-card-value').innerText());
      expect(await page.locator('[data-testid=task-card-running] .task-card-value').innerText()).toBe('1');
      expect(await page.getByRole('group', { name: 'Completion rate' }).innerText()).toMatch(/50\.0%/); // 2 of 4 ended
      expect(await page.getByRole('group', { name: 'Faults per 100 runs' }).innerText()).toMatch(/50/);
      const chart = page.getByRole('img', { name: 'Runs, results, area and mowing hours per day' });
      await chart.locator('canvas').waitFor();
      expect(await chart.getAttribute('data-days')).toBe('31');
      expect(await chart.getAttribute('data-runs')).toBe('5');
      expect(await tableRow(page.getByTestId('task-by-model'), 'MLT1').innerText()).toMatch(/MLT1\s+5/);
      expect(await tableRow(page.getByTestId('task-by-firmware'), '1.4.0').count()).toBe(1);
      expect(await tableRow(page.getByTestId('task-by-firmware'), '1.3.2').count()).toBe(1);
      expect(await untranslatedKeys(page)).toEqual([]);
      await shot(page, 'task-overview.en-US.dark');
    });

    it('schedules: sync state with a re-send, edit with validation messages, disable after a confirmation', async () => {
      const { page } = session;
      await page.goto(`${server.url}/#/task/task-list`);
      await row(page, 'Weekday mornings').locator('[data-sync=applied]').waitFor();
      expect(await row(page, 'Evenings').locator('[data-sync=pending]').count()).toBe(1);
      await page.getByRole('button', { name: `Send schedule Evenings to ${B} again` }).click();
      await toast(page, `Sent to ${B} again; waiting for the mower to acknowledge`);

      await page.getByRole('button', { name: `Edit schedule Weekday mornings of ${A}` }).click();
      const modal = page.locator('.arco-modal:visible');
      await modal.getByText('Edit schedule · E2E-TSK-0001').waitFor();
      await modal.getByLabel('From 2', { exact: true }).fill('09:30');
      await modal.getByText('Overlaps another slot on Mon').first().waitFor();
      await modal.getByLabel('To 3', { exact: true }).fill('07:00');
      await modal.getByText('A slot ends after it starts, within the same day').waitFor();
      await modal.getByRole('button', { name: 'Save' }).click();
      expect((await schedule(mornings.id)).revision).toBe(1); // refused here, never sent
      await modal.getByLabel('From 2', { exact: true }).fill('10:00'); // back to back is fine
      await modal.getByLabel('To 3', { exact: true }).fill('11:00');
      await modal.getByLabel('Cutting height (mm)').fill('55');
      await modal.getByRole('button', { name: 'Save' }).click();
      await toast(page, '“Weekday mornings” saved as revision 2; sending it to the mower');
      const saved = await schedule(mornings.id);
      expect(saved).toMatchObject({ revision: 2, cutting: { heightMm: 55 } });
      expect(saved.slots).toContainEqual({ weekday: 1, start: '10:00', end: '16:00' });
      expect(saved.slots).toContainEqual({ weekday: 3, start: '08:00', end: '11:00' });
      await expect.poll(async () => (await schedule(mornings.id)).syncState, SETTLE).toBe('applied');

      await page.getByRole('button', { name: `Disable schedule Weekday mornings of ${A}` }).click();
      await page.locator('.arco-popconfirm:visible').getByText(`Disable “Weekday mornings” on ${A}?`, { exact: false }).waitFor();
      await confirmPopup(page);
      await toast(page, '“Weekday mornings” is disabled; sending it to the mower');
      expect((await schedule(mornings.id)).enabled).toBe(false);
      await row(page, 'Weekday mornings').locator('[data-enabled=false]').waitFor();
      await shot(page, 'task-list.en-US.dark');
    });

    it('records: newest first, filters, CSV export, and a run with its path on the map, timeline, resumption and last mowed', async () => {
      const { page } = session;
      await page.goto(`${server.url}/#/task/task-record`);
      // The page before stays in the DOM (tab bar), hidden: wait for this page's own rows.
      const runButtons = page.locator('.arco-table tbody tr.arco-table-tr [data-run-id]:visible');
      await expect.poll(() => runButtons.count(), SETTLE).toBe(5);
      const order = await runButtons.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-run-id'))));
      expect(order[0]).toBe(runIds.get('run-b-0002')); // started most recently
      expect(order).toHaveLength(5);

      await page.locator('.device-filters:visible').getByLabel('Fault code').fill('blade_blocked');
      await page.getByRole('button', { name: 'Search' }).click();
      await expect.poll(() => row(page, /E2E-TSK/).count(), SETTLE).toBe(1);
      expect(await row(page, /E2E-TSK/).innerText()).toMatch(/Interrupted[\s\S]*BLADE_BLOCKED/);
      await page.getByRole('button', { name: 'Reset' }).click();
      await expect.poll(() => row(page, /E2E-TSK/).count(), SETTLE).toBe(5);

      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export CSV' }).click();
      const csv = await readFile((await (await download).path())!, 'utf8');
      expect(csv).toContain('run-a-0001');
      expect(csv).toContain(UNKNOWN);

      await page.getByRole('button', { name: `Details of run run-a-0001 on ${A}` }).click();
      const drawer = page.getByTestId('task-run-detail');
      await drawer.waitFor();
      const map = drawer.getByRole('img', { name: `Map of the run’s path over the garden zones of ${A}` });
      await expect.poll(() => map.getAttribute('data-ready'), SETTLE).toBe('true');
      expect(Number(await map.getAttribute('data-path-points'))).toBe(12);
      expect(await map.getAttribute('data-zones')).toBe('2');
      const timeline = drawer.getByTestId('task-run-timeline');
      expect(await timeline.locator('[data-event=paused]').innerText()).toBe('Paused: Charging (battery 15%)');
      expect(await timeline.locator('[data-event=ended]').innerText()).toBe('Ended: Completed');
      expect(await timeline.innerText()).toMatch(/1 progress reports/);
      const zonesTable = drawer.getByTestId('task-run-zones');
      expect(await zonesTable.locator('tr').filter({ hasText: 'Front lawn' }).locator('[data-last-mowed]').count()).toBe(1);
      await shot(page, 'task-record-drawer.en-US.dark');
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: `Details of run run-a-0003 on ${A}` }).click();
      await page.locator(`[data-testid=task-run-detail][data-run-id="${runIds.get('run-a-0003')}"]`).waitFor();
      await page.getByRole('button', { name: 'Open run run-a-0002' }).click();
      const resumed = page.locator(`[data-testid=task-run-detail][data-run-id="${runIds.get('run-a-0002')}"]`);
      await resumed.waitFor();
      expect(await resumed.getByTestId('task-run-timeline').innerText()).toMatch(/Fault BLADE_BLOCKED: Blade blocked[\s\S]*Fix: Switch off/);
      expect(await resumed.getByTestId('task-run-chain').innerText()).toMatch(/Continued by run/);
      await page.keyboard.press('Escape');
    });

    it('task faults: grouped by code with per-model and per-firmware counts, unknown codes named, links to the run and the events', async () => {
      const { page } = session;
      await page.goto(`${server.url}/#/task/task-fault`);
      const faults = page.getByTestId('task-fault-table');
      const blade = tableRow(faults, 'BLADE_BLOCKED');
      await blade.waitFor();
      expect(await blade.innerText()).toMatch(/Major[\s\S]*Blade blocked[\s\S]*Fix: Switch off[\s\S]*MLT1: 1[\s\S]*1\.4\.0: 1/);
      expect(await tableRow(faults, UNKNOWN).innerText()).toMatch(new RegExp(`unknown code ${UNKNOWN}[\\s\\S]*1\\.3\\.2: 1`));
      await page.getByRole('img', { name: 'Runs ended by a fault per day, by code' }).locator('canvas').waitFor();
      expect(await page.getByTestId('task-fault-total').innerText()).toBe('2 runs ended by a fault');
      await shot(page, 'task-fault.en-US.dark');

      await page.getByRole('link', { name: `Latest run ended by BLADE_BLOCKED, on ${A}` }).click();
      await page.waitForURL(/#\/task\/task-record\?faultCode=BLADE_BLOCKED&id=\d+/);
      await page.locator(`[data-testid=task-run-detail][data-run-id="${runIds.get('run-a-0002')}"]`).waitFor();
      await page.keyboard.press('Escape');
      await page.goto(`${server.url}/#/task/task-fault`);
      await page.getByRole('link', { name: `Exception events BLADE_BLOCKED of ${A}` }).click();
      await page.waitForURL(/#\/device\/device-exception-event\?sn=E2E-TSK-0001&code=BLADE_BLOCKED/);
      expect(session.errors).toEqual([]);
    });
  });

  describe('zh-CN, light', () => {
    it('shows every task page in Chinese with real data and no raw keys', async () => {
      const { page, errors, context } = await openSignedIn(browser, server, '/task/task-overview', { locale: 'zh-CN', theme: 'light' });
      try {
        expect(await page.evaluate(() => document.body.getAttribute('arco-theme'))).toBeNull();
        await page.getByRole('group', { name: '今日作业' }).waitFor();
        await page.getByRole('img', { name: '每日作业数、结果、面积与割草时长' }).locator('canvas').waitFor();
        expect(await untranslatedKeys(page)).toEqual([]);
        await shot(page, 'task-overview.zh-CN.light');

        await page.goto(`${server.url}/#/task/task-list`);
        await row(page, 'Evenings').locator('[data-sync]').waitFor();
        expect(await row(page, 'Evenings').innerText()).toMatch(/周五 18:00–20:00/);
        expect(await untranslatedKeys(page)).toEqual([]);

        await page.goto(`${server.url}/#/task/task-record`);
        await expect.poll(() => page.locator('[data-run-id]:visible').count(), SETTLE).toBe(5);
        expect(await row(page, A).filter({ hasText: '已完成' }).count()).toBeGreaterThan(0);
        expect(await row(page, B).filter({ hasText: '作业中' }).count()).toBe(1);
        await page.getByRole('button', { name: `${A} 的作业 run-a-0001 详情` }).click();
        await page.getByTestId('task-run-timeline').getByText('暂停：充电（电量 15%）').waitFor();
        expect(await untranslatedKeys(page)).toEqual([]);
        await shot(page, 'task-record.zh-CN.light');
        await page.keyboard.press('Escape');

        await page.goto(`${server.url}/#/task/task-fault`);
        await tableRow(page.getByTestId('task-fault-table'), 'BLADE_BLOCKED').getByText('刀盘被卡住').waitFor();
        expect(await tableRow(page.getByTestId('task-fault-table'), UNKNOWN).innerText()).toContain(`未知故障码 ${UNKNOWN}`);
        expect(await untranslatedKeys(page)).toEqual([]);
        await shot(page, 'task-fault.zh-CN.light');
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
  // Last: it adds a run, which the counts above do not expect.
  describe('manual start and return home from the device drawer', () => {
    const CONSOLE_RUN = 'run-a-0100';
    const asked: CommandRequest[] = [];

    beforeAll(async () => {
      // Mower A answers task commands the way the protocol says and reports the run it starts and ends.
      const a = mowers.find((m) => m.sn === A)!;
      a.client.on('message', (topic, payload) => {
        if (topic !== deviceTopic(A, deviceTopics.cmdReq)) return;
        const req = JSON.parse(payload.toString()) as CommandRequest;
        asked.push(req);
        const ts = Date.now();
        if (req.name === taskCommands.start) {
          void (async () => {
            await a.publish(deviceTopics.cmdRes, { v: PROTOCOL_VERSION, id: req.id, ok: true, result: { runId: CONSOLE_RUN } });
            await a.publish(deviceTopics.runs, { v: PROTOCOL_VERSION, runId: CONSOLE_RUN, seq: 1, ts, type: 'started', trigger: req.args.trigger, scheduleId: null, zones: req.args.zones, plannedAreaM2: 1750, resumes: null });
          })();
        } else if (req.name === taskCommands.returnHome) {
          void (async () => {
            await a.publish(deviceTopics.cmdRes, { v: PROTOCOL_VERSION, id: req.id, ok: true, result: { ok: true } });
            await a.publish(deviceTopics.runs, { v: PROTOCOL_VERSION, runId: CONSOLE_RUN, seq: 2, ts, type: 'ended', result: 'user_ended', faultCode: null, areaM2: 40, durationS: 60, bladeOnS: 55, distanceM: 30, path: zigzag(52.52) });
          })();
        }
      });
      await a.client.subscribeAsync(deviceTopic(A, deviceTopics.cmdReq), { qos: 1 });
    });

    const consoleRun = async () => {
      const page = await ok(server.api<RunPage>('GET', `/api/admin/task/run?sn=${A}&pageSize=50`, { token: admin }));
      return page.list.find((r) => r.runId === CONSOLE_RUN);
    };

    it('starts a console run after a confirmation, then sends the mower home', async () => {
      const { page, errors, context } = await openSignedIn(browser, server, `/device/list?sn=${A}`, { locale: 'en-US', theme: 'light' });
      try {
        const drawer = page.locator('[data-testid=device-detail]');
        await drawer.waitFor();
        const controls = drawer.getByTestId('task-controls');
        await controls.waitFor();
        await controls.getByLabel('Time limit (minutes)').fill('30');

        await controls.getByRole('button', { name: `Start mowing ${A} now` }).click();
        await page.locator('.arco-popconfirm:visible').getByText(`Start mowing ${A} now (whole garden, at most 30 min)?`).waitFor();
        await confirmPopup(page);
        await toast(page, `${A} started mowing: run ${CONSOLE_RUN}`);
        const start = asked.find((r) => r.name === taskCommands.start);
        expect(start?.args).toEqual({ zones: [], durationMin: 30, trigger: 'console' });
        await expect.poll(async () => (await consoleRun())?.status, SETTLE).toBe('running');
        expect(await consoleRun()).toMatchObject({ trigger: 'console', sn: A });

        await controls.getByRole('button', { name: `Send ${A} home` }).click();
        await page.locator('.arco-popconfirm:visible').getByText(`End the current run of ${A} and send it back to its station?`).waitFor();
        await confirmPopup(page);
        await toast(page, `${A} is returning home`);
        expect(asked.filter((r) => r.name === taskCommands.returnHome)).toHaveLength(1);
        await expect.poll(async () => (await consoleRun())?.status, SETTLE).not.toBe('running');
        expect(await consoleRun()).toMatchObject({ status: 'ended', result: 'user_ended' });
        expect(await untranslatedKeys(page)).toEqual([]);
        await shot(page, 'device-drawer-task-controls.en-US.light');
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
