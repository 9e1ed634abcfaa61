import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppTicketDetail, TicketDetail } from '@mowerline/contract';
import type { TestServer } from '../../server/test/harness.ts';
import { confirmedAppUser, createModelAndSn } from '../../server/test/end-users/fixtures.ts';
import { connectDevice, waitFor, type TestDevice } from '../../server/test/devices/fixtures.ts';
import { raise } from './devices.helpers.ts';
import { launchBrowser, startConsoleServer } from './harness.ts';
import { confirmPopup, createStaff, openSignedIn, row, SETTLE, toast, untranslatedKeys, type Opened } from './pages.helpers.ts';

const SN = 'E2E-TKT-0001';
const XSS = '<script>window.__xss=1</script><img src=x onerror="window.__xss=1">';

/** SCREENSHOT_DIR=/tmp/x keeps a screenshot for a human look. */
async function shot(page: Page, name: string): Promise<void> {
  if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/${name}.png`, fullPage: true });
}

/**
 * Texts the ticket table cuts off: every header, and every tag, SLA or date cell (titles, names and
 * assignees may ellipsize long values by design; those columns have tooltips).
 */
async function clippedCells(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.arco-table-th-item-title, .arco-table-td .arco-tag, .arco-table-td .ticket-sla')]
      .filter((el) => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.innerText),
  );
}

interface AppUser {
  id: number;
  email: string;
  token: string;
}

interface Filed {
  id: number;
  number: number;
  title: string;
}

/**
 * /ticket/list and /ticket/detail against a real server, with tickets filed the way the app files
 * them (POST /api/app/v1/feedback, one as multipart with a screenshot, one about a bound mower that
 * has just raised a fault), then handled in the console in both languages.
 */
describe('feedback tickets in the console against the real server', () => {
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let admin: string;
  let device: TestDevice;
  let ann: AppUser; // en-US, owns the mower
  let bo: AppUser; // zh-CN, no mower
  let blade: Filed; // Ann's, about the mower, with a screenshot
  let map: Filed; // Ann's, about the app
  let duplicate: Filed; // Ann's again about the blade: merged into `blade`
  let hostile: Filed; // Ann's, HTML and script in title and description
  let email: Filed; // Bo's, in Chinese
  const bulk: Filed[] = []; // Bo's, assigned and closed in bulk

  const file = async (user: AppUser, body: Record<string, string>): Promise<Filed> => {
    const res = await server.api<AppTicketDetail>('POST', '/api/app/v1/feedback', {
      token: user.token,
      body,
      headers: { 'x-app-version': '3.2.1', 'x-app-os': 'Android 15' },
    });
    if (res.body.code !== 0) throw new Error(`file ${body.title}: ${JSON.stringify(res.body)}`);
    return { id: res.body.data.id, number: res.body.data.number, title: body.title! };
  };
  /** The app's multipart call: the fields first, then the screenshot. */
  const fileWithScreenshot = async (user: AppUser, fields: Record<string, string>): Promise<Filed> => {
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a8f4f' } }).png().toBuffer();
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'lawn.png');
    const res = await fetch(`${server.url}/api/app/v1/feedback`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${user.token}`, 'x-app-version': '3.2.1', 'x-app-os': 'iOS 18.1' },
      body: form,
    });
    const body = (await res.json()) as { code: number; data: AppTicketDetail };
    if (body.code !== 0) throw new Error(`file ${fields.title}: ${JSON.stringify(body)}`);
    return { id: body.data.id, number: body.data.number, title: fields.title! };
  };
  const staffView = async (id: number) => (await server.api<TicketDetail>('GET', `/api/admin/ticket/${id}`, { token: admin })).body.data;
  const appView = async (user: AppUser, id: number) => (await server.api<AppTicketDetail>('GET', `/api/app/v1/feedback/${id}`, { token: user.token })).body.data;

  beforeAll(async () => {
    server = await startConsoleServer({ telemetryFlushMs: 50 });
    browser = await launchBrowser();
    admin = await server.login();
    await createStaff(server, admin, { username: 'jade', name: 'Jade Sun', email: 'jade@example.com', role: 'user' });

    const { secret, pairingCode } = await createModelAndSn(server, admin, SN);
    device = await connectDevice(server, SN, secret);
    await device.telemetry({ state: 'error', activity: 'stopped_in_garden', battery: 41, position: { lat: 52.52, lng: 13.405, heading: 0 } });
    await raise(device, 'BLADE_BLOCKED', 'critical', 'Blade motor stalled');
    await waitFor(async () => (await server.api<{ total: number }>('GET', `/api/admin/device/event?sn=${SN}`, { token: admin })).body.data.total === 1, 15_000, 'event');

    ann = await confirmedAppUser(server, admin, { email: 'ann.tickets@example.com', name: 'Ann Becker', locale: 'en-US' });
    bo = await confirmedAppUser(server, admin, { email: 'bo.tickets@example.com', name: 'Bo Wang', country: 'CN', locale: 'zh-CN' });
    const bound = await server.api('POST', '/api/app/v1/devices/bind', { token: ann.token, body: { sn: SN, pairingCode } });
    if (bound.body.code !== 0) throw new Error(JSON.stringify(bound.body));

    blade = await fileWithScreenshot(ann, { category: 'device', title: 'Blade stops after ten minutes', description: 'It beeps and stops on the front lawn.', sn: SN });
    map = await file(ann, { category: 'app', title: 'Map does not load', description: 'The map stays grey in the app.' });
    duplicate = await file(ann, { category: 'device', title: 'Blade stopped again', description: 'Same as before, the blade stops.', sn: SN });
    hostile = await file(ann, { category: 'other', title: XSS, description: XSS });
    email = await file(bo, { category: 'account', title: '无法修改邮箱', description: '修改邮箱时一直提示错误。' });
    bulk.push(await file(bo, { category: 'suggestion', title: 'Bulk one: dark mode', description: 'Please add a dark mode.' }));
    bulk.push(await file(bo, { category: 'suggestion', title: 'Bulk two: widgets', description: 'Please add widgets.' }));
    // Waiting for Ann: the longest status label, and a paused SLA clock.
    const pending = await server.api('PUT', `/api/admin/ticket/${map.id}`, { token: admin, body: { status: 'pending_customer' } });
    if (pending.body.code !== 0) throw new Error(JSON.stringify(pending.body));
  });

  afterAll(async () => {
    if (device?.client.connected) await device.end();
    await browser?.cleanup();
    await server?.close();
  });

  describe('en-US, dark', () => {
    let session: Opened;
    beforeAll(async () => {
      // 1280 px wide with the longer English labels: the narrowest desktop the columns are laid out for.
      session = await openSignedIn(browser, server, '/ticket/list', { locale: 'en-US', theme: 'dark', width: 1280 });
    });
    afterAll(async () => {
      await session?.context.close();
    });

    it('lists the tickets with user, mower, status, priority and a running SLA countdown; filters live in the URL; CSV export', async () => {
      const { page } = session;
      expect(await page.evaluate(() => document.body.getAttribute('arco-theme'))).toBe('dark');
      await row(page, blade.title).waitFor();
      const bladeRow = await row(page, blade.title).innerText();
      expect(bladeRow).toContain(`#${blade.number}`);
      expect(bladeRow).toMatch(/Ann Becker[\s\S]*E2E-TKT-0001[\s\S]*New[\s\S]*Normal[\s\S]*Unassigned[\s\S]*left/);
      expect(await row(page, email.title).count()).toBe(1);
      await expect.poll(() => page.locator('.arco-pagination-total-text:visible').innerText(), SETTLE).toMatch(/7 tickets/);
      expect(await row(page, map.title).innerText()).toMatch(/Pending customer[\s\S]*Paused/);
      expect(await clippedCells(page)).toEqual([]);
      expect(await row(page, blade.title).getByRole('link', { name: `Open mower ${SN} in the device list` }).count()).toBe(1);

      // Full-text keyword: both blade tickets, nothing else.
      await page.locator('.ticket-filters:visible').getByLabel('Keyword', { exact: true }).fill('blade');
      await page.getByRole('button', { name: 'Search' }).click();
      await row(page, map.title).waitFor({ state: 'detached' });
      expect(await row(page, /Blade/).count()).toBe(2);
      await page.waitForURL(/#\/ticket\/list\?keyword=blade/);

      // A link with filters opens the list filtered: category + SN.
      await page.goto(`${server.url}/#/ticket/list?category=app`);
      await row(page, map.title).waitFor();
      await expect.poll(() => row(page, /Blade/).count(), SETTLE).toBe(0);
      await page.goto(`${server.url}/#/ticket/list?sn=${SN}`);
      await expect.poll(() => row(page, /Blade/).count(), SETTLE).toBe(2);
      expect(await row(page, map.title).count()).toBe(0);

      // The "unassigned" view: every ticket is still unassigned.
      await page.getByRole('button', { name: 'Reset' }).click();
      await page.locator('.ticket-views:visible').getByText('Unassigned', { exact: true }).click();
      await page.waitForURL(/view=unassigned/);
      await expect.poll(() => page.locator('.arco-pagination-total-text:visible').innerText(), SETTLE).toMatch(/7 tickets/);
      await page.locator('.ticket-views:visible').getByText('Mine', { exact: true }).click();
      await page.locator('[data-testid=ticket-empty]:visible').waitFor();
      await page.locator('.ticket-views:visible').getByText('All tickets', { exact: true }).click();
      await row(page, blade.title).waitFor();

      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export CSV' }).click();
      const csv = await readFile((await (await download).path())!, 'utf8');
      expect(csv).toContain(blade.title);
      expect(csv).toContain(email.title);
      await shot(page, 'ticket-list.en-US.dark');
    });

    it('opens the detail from the list: tab named after the ticket, list highlighted in the menu, device snapshot with live links, screenshot preview', async () => {
      const { page } = session;
      await row(page, blade.title).getByRole('link', { name: `Open ticket #${blade.number}` }).click();
      await page.waitForURL(new RegExp(`#/ticket/detail\\?id=${blade.id}$`));
      const detail = page.locator('[data-testid=ticket-detail]:visible');
      await detail.waitFor();
      await expect.poll(() => page.getByTestId('tabbar-ticket-detail').innerText(), SETTLE).toContain(`#${blade.number} ${blade.title}`);
      await expect.poll(() => page.title(), SETTLE).toContain(`#${blade.number} ${blade.title}`);
      expect(await page.getByTestId('menu-ticket-list').getAttribute('class')).toContain('arco-menu-selected');

      expect(await detail.getByTestId('ticket-facts').innerText()).toMatch(/Ann Becker[\s\S]*ann\.tickets@example\.com[\s\S]*Mower[\s\S]*3\.2\.1 · iOS 18\.1/);
      const snapshot = detail.getByTestId('ticket-device');
      expect(await snapshot.innerText()).toMatch(/E2E-TKT-0001[\s\S]*41%/);
      expect(await snapshot.getByTestId('ticket-device-events').innerText()).toMatch(/BLADE_BLOCKED[\s\S]*Critical[\s\S]*Blade motor stalled/);
      expect(await snapshot.getByRole('link', { name: 'Its exception events' }).getAttribute('href')).toBe(`#/device/device-exception-event?sn=${SN}`);
      expect(await snapshot.getByRole('link', { name: 'Its task runs' }).getAttribute('href')).toBe(`#/task/task-record?sn=${SN}`);
      expect(await detail.getByTestId('ticket-others').innerText()).toContain(map.title);

      // The screenshot: a thumbnail fetched with the bearer token and shown from an object URL, then full size.
      const thumb = detail.getByRole('button', { name: 'Preview lawn.png' });
      await expect.poll(() => thumb.locator('img').getAttribute('src'), SETTLE).toMatch(/^blob:/);
      await thumb.click();
      await expect.poll(() => page.locator('.arco-image-preview-img').getAttribute('src'), SETTLE).toMatch(/^blob:/);
      await page.keyboard.press('Escape');
      const download = page.waitForEvent('download');
      await detail.getByRole('button', { name: 'Download lawn.png' }).click();
      expect((await download).suggestedFilename()).toBe('lawn.png');
      await shot(page, 'ticket-detail.en-US.dark');
    });

    it('keeps an internal note apart from a public reply: only the reply reaches the app', async () => {
      const { page } = session;
      const detail = page.locator('[data-testid=ticket-detail]:visible');
      const composer = detail.getByTestId('ticket-composer');
      await composer.getByText('Internal note', { exact: true }).click();
      await composer.getByTestId('ticket-composer-text').fill('Probably the known motor batch, check the serial range.');
      await composer.getByRole('button', { name: 'Add note' }).click();
      await toast(page, 'Note added');
      const note = detail.locator('[data-entry-kind=internal]');
      await note.waitFor();
      expect(await note.innerText()).toMatch(/Internal note[\s\S]*known motor batch/);
      expect(await note.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(
        await detail.locator('[data-entry-kind=description]').evaluate((el) => getComputedStyle(el).backgroundColor),
      );

      await composer.getByText('Reply', { exact: true }).click();
      await composer.getByTestId('ticket-composer-text').fill('Thanks Ann, please send us a photo of the blade.');
      await composer.getByRole('button', { name: 'Send reply' }).click();
      await toast(page, 'Reply sent');
      await detail.locator('[data-entry-kind=agent]', { hasText: 'photo of the blade' }).waitFor();

      const seen = await appView(ann, blade.id);
      const bodies = seen.entries.map((e) => e.body).join('\n');
      expect(bodies).toContain('please send us a photo of the blade');
      expect(bodies).not.toContain('known motor batch');
    });

    it('resolves, then closes the ticket with the workflow buttons', async () => {
      const { page } = session;
      const workflow = page.locator('[data-testid=ticket-detail]:visible').getByTestId('ticket-workflow');
      await workflow.getByRole('button', { name: 'Resolve' }).click();
      await toast(page, `#${blade.number} is resolved`);
      await expect.poll(async () => (await staffView(blade.id)).status, SETTLE).toBe('resolved');
      await workflow.getByRole('button', { name: 'Close' }).click();
      await toast(page, `#${blade.number} is closed`);
      await expect.poll(async () => (await staffView(blade.id)).status, SETTLE).toBe('closed');
      await page.locator('[data-testid=ticket-composer]:visible').getByText('reopen it to reply').waitFor();
      expect(await page.locator('[data-testid=ticket-history]:visible').innerText()).toMatch(/status: Resolved → Closed/);
      await workflow.getByRole('button', { name: 'Reopen' }).click();
      await expect.poll(async () => (await staffView(blade.id)).status, SETTLE).toBe('open');
    });

    it('shows HTML and script in a ticket as text: nothing runs, nothing is injected', async () => {
      const { page } = session;
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await page.goto(`${server.url}/#/ticket/list`);
      await row(page, '<script>window.__xss=1</script>').waitFor();
      await page.goto(`${server.url}/#/ticket/detail?id=${hostile.id}`);
      const detail = page.locator(`[data-testid=ticket-detail][data-ticket-id="${hostile.id}"]`);
      await detail.waitFor();
      expect(await detail.getByTestId('ticket-title').innerText()).toBe(XSS);
      expect(await detail.getByTestId('ticket-description').innerText()).toBe(XSS);
      await expect.poll(() => page.getByTestId('tabbar-ticket-detail').innerText(), SETTLE).toContain('<script>');
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
      expect(await page.evaluate(() => document.querySelectorAll('img[src="x"], #root script').length)).toBe(0);
      expect(dialogs).toEqual([]);
    });

    it('merges a duplicate into the first ticket by its number, after a confirmation', async () => {
      const { page } = session;
      await page.goto(`${server.url}/#/ticket/detail?id=${duplicate.id}`);
      const detail = page.locator(`[data-testid=ticket-detail][data-ticket-id="${duplicate.id}"]`);
      await detail.waitFor();
      await detail.getByRole('button', { name: 'Merge…' }).click();
      const modal = page.locator('.arco-modal:visible');
      await modal.getByLabel('Number of the ticket to merge into (same user)').fill(String(email.number));
      await modal.getByRole('button', { name: 'Find' }).click();
      await modal.getByText(`Ticket #${email.number} belongs to another user`).waitFor();
      await modal.getByLabel('Number of the ticket to merge into (same user)').fill(`#${blade.number}`);
      await modal.getByRole('button', { name: 'Find' }).click();
      await modal.getByTestId('ticket-merge-confirm').getByText(`#${duplicate.number} will close and its conversation moves into #${blade.number}`).waitFor();
      expect((await staffView(duplicate.id)).mergedIntoId).toBeNull();
      await modal.getByRole('button', { name: 'Merge' }).click();
      await toast(page, `#${duplicate.number} is merged into #${blade.number}`);
      await page.waitForURL(new RegExp(`#/ticket/detail\\?id=${blade.id}$`));
      const merged = await staffView(duplicate.id);
      expect(merged.status).toBe('closed');
      expect(merged.mergedIntoId).toBe(blade.id);
      await page.locator(`[data-testid=ticket-detail][data-ticket-id="${blade.id}"]`).getByText('Same as before, the blade stops.').first().waitFor();
    });

    it('left no console errors and no untranslated strings', async () => {
      expect(await untranslatedKeys(session.page)).toEqual([]);
      expect(session.errors).toEqual([]);
    });
  });

  it('zh-CN, light: the list and the detail in Chinese; bulk assign and bulk close after a confirmation', async () => {
    const { page, errors, context } = await openSignedIn(browser, server, '/ticket/list', { locale: 'zh-CN', theme: 'light' });
    try {
      await row(page, email.title).waitFor();
      expect(await row(page, email.title).innerText()).toMatch(/Bo Wang[\s\S]*新建[\s\S]*普通[\s\S]*未分配[\s\S]*剩余/);
      expect(await untranslatedKeys(page)).toEqual([]);
      expect(await clippedCells(page)).toEqual([]);
      await shot(page, 'ticket-list.zh-CN.light');

      for (const t of bulk) await row(page, t.title).locator('label.arco-checkbox').click();
      const bar = page.getByTestId('ticket-bulk');
      await bar.getByText('已选 2 个').waitFor();
      await bar.locator('.arco-select').click();
      await page.locator('.arco-select-popup:visible .arco-select-option').filter({ hasText: 'Jade Sun' }).click();
      await bar.getByRole('button', { name: '分配' }).click();
      await toast(page, '已更新 2 个工单');
      for (const t of bulk) await expect.poll(async () => (await staffView(t.id)).assignee?.name, SETTLE).toBe('Jade Sun');

      for (const t of bulk) await row(page, t.title).locator('label.arco-checkbox').click();
      await page.getByTestId('ticket-bulk').getByRole('button', { name: '关闭' }).click();
      await page.locator('.arco-popconfirm:visible').getByText('关闭这 2 个工单？').waitFor();
      expect((await staffView(bulk[0]!.id)).status).toBe('new');
      await confirmPopup(page);
      await toast(page, '已更新 2 个工单');
      for (const t of bulk) await expect.poll(async () => (await staffView(t.id)).status, SETTLE).toBe('closed');

      // The detail in Chinese: workflow, composer and the internal-note label.
      await row(page, email.title).getByRole('link', { name: `打开工单 #${email.number}` }).click();
      const detail = page.locator(`[data-testid=ticket-detail][data-ticket-id="${email.id}"]`);
      await detail.waitFor();
      await detail.getByTestId('ticket-workflow').getByRole('button', { name: '开始处理' }).click();
      await toast(page, `#${email.number} 处理中`);
      const composer = detail.getByTestId('ticket-composer');
      await composer.getByText('内部备注', { exact: true }).click();
      await composer.getByTestId('ticket-composer-text').fill('用户在中国区，转给账号组。');
      await composer.getByRole('button', { name: '添加备注' }).click();
      await detail.locator('[data-entry-kind=internal]').getByText('内部备注').waitFor();
      expect((await appView(bo, email.id)).entries.map((e) => e.body).join('\n')).not.toContain('转给账号组');
      expect(await untranslatedKeys(page)).toEqual([]);
      await shot(page, 'ticket-detail.zh-CN.light');
      expect(errors).toEqual([]);
    } catch (e) {
      await shot(page, 'ticket.zh-CN.failed');
      throw e;
    } finally {
      await context.close();
    }
  });
});
