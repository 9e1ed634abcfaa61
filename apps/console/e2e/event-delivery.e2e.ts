import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../server/test/harness.ts';
import { emit } from '../../server/src/events/emit.ts';
import { launchBrowser, startConsoleServer } from './harness.ts';
import { openPage, openSignedIn, row, SETTLE, type Opened } from './pages.helpers.ts';

const HASH = '/system/event-delivery';
const STATUS_PATH = '/api/admin/system/event-delivery';
/** A subscriber no node of this server runs (say, a webhook module of a node that is down). */
const PROBE = 'e2e-webhooks';

/** Critical and serious axe violations (WCAG 2.1 AA), minus Arco's table scroll box (see a11y.e2e.ts). */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).include('.layout-page').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .flatMap((v) => v.nodes.map((n) => `${v.id} at ${n.target.map(String).join(' ')}`))
    .filter((found) => !/^scrollable-region-focusable at .*\.arco-table-content-inner/.test(found));
}

/** A device fault as the gateway writes it to the outbox: the bell (and the probe, once registered) get a delivery. */
async function raiseFault(server: TestServer, eventId: number): Promise<void> {
  await server.ctx.db.transaction((tx) =>
    emit(tx, {
      type: 'device.event.raised',
      subject: 'E2E-SPINE-1',
      payload: { sn: 'E2E-SPINE-1', eventId, code: 'E101', severity: 'warning', message: 'Blade motor overcurrent', at: new Date().toISOString() },
    }),
  );
}

/** A figure of one subscriber's row as the page shows it. */
const figure = (page: Page, subscriber: string, field: string) => row(page, subscriber).locator(`[data-field=${field}]`).innerText();

describe('System → Event delivery against the real server', () => {
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let session: Opened;

  beforeAll(async () => {
    server = await startConsoleServer();
    browser = await launchBrowser();
    session = await openSignedIn(browser, server, HASH, { locale: 'en-US' });
  });

  afterAll(async () => {
    await session?.context.close();
    await browser?.cleanup();
    await server?.close();
  });

  it('shows the bell: its event types, up to date, and what it delivered after a refresh', async () => {
    const { page } = session;
    const bell = row(page, 'bell');
    await bell.waitFor();
    expect(await bell.innerText()).toContain('device.event.raised');
    expect(await bell.locator('[data-health=ok]').innerText()).toBe('Up to date');
    expect(await figure(page, 'bell', 'lag')).toBe('None');
    expect(await figure(page, 'bell', 'delivered')).toBe('0');

    await raiseFault(server, 1);
    // The refresh button asks again; the dispatcher delivers on its own time, so ask until it has.
    const refresh = page.getByRole('button', { name: 'Refresh' });
    await expect
      .poll(async () => {
        await refresh.click();
        return figure(page, 'bell', 'delivered');
      }, SETTLE)
      .toBe('1');
  });

  it('asks again on its own every few seconds', async () => {
    const { page } = session;
    const again = await page.waitForRequest((r) => r.url().includes(STATUS_PATH), { timeout: 30_000 });
    expect(again.method()).toBe('GET');
  });

  it('highlights a failing subscriber with its status in words, its lag and its last error', async () => {
    const { page } = session;
    await server.ctx.db.execute(sql`insert into event_subscribers (name, types) values (${PROBE}, ${sql.param(['device.event.raised'])}::text[])`);
    await raiseFault(server, 2);
    // As a node records a failed attempt: the error, when, and the event waiting since 200 s ago.
    await server.ctx.db.execute(sql`update event_deliveries set attempts = 3, last_error = 'connect ECONNREFUSED 10.0.0.9:443', last_error_at = now() where subscriber = ${PROBE}`);
    await server.ctx.db.execute(sql`update events set created_at = now() - interval '200 seconds' where id in (select event_id from event_deliveries where subscriber = ${PROBE})`);

    await page.getByRole('button', { name: 'Refresh' }).click();
    const probe = row(page, PROBE);
    await probe.waitFor();
    expect(await probe.locator('[data-health=failing]').innerText()).toBe('Failing');
    expect(await probe.getAttribute('class')).toContain('event-delivery-failing');
    expect(await figure(page, PROBE, 'pending')).toBe('1');
    expect(await figure(page, PROBE, 'failing')).toBe('1');
    expect(await figure(page, PROBE, 'lag')).toMatch(/^3 min( \d+ sec)?$/);
    expect(await figure(page, PROBE, 'last-error')).toContain('connect ECONNREFUSED 10.0.0.9:443');
    expect(await page.getByTestId('event-delivery-failing').innerText()).toContain('1 subscriber keeps failing');
    // The bell is not held back by the probe.
    await expect.poll(() => figure(page, 'bell', 'delivered'), SETTLE).toBe('2');
    expect(await row(page, 'bell').getAttribute('class')).not.toContain('event-delivery-failing');
    expect(await violations(page)).toEqual([]);
  });

  it('reads in Chinese in the dark theme, and passes axe there too', async () => {
    const zh = await openSignedIn(browser, server, HASH, { locale: 'zh-CN', theme: 'dark' });
    try {
      await openPage(zh.page, HASH);
      await row(zh.page, 'bell').waitFor();
      expect(await row(zh.page, 'bell').locator('[data-health=ok]').innerText()).toBe('已同步');
      expect(await row(zh.page, PROBE).locator('[data-health=failing]').innerText()).toBe('投递失败');
      expect(await figure(zh.page, PROBE, 'lag')).toMatch(/^3分钟(\d+秒)?$/);
      expect(await zh.page.locator('.layout-page').innerText()).toContain('事件投递');
      expect(await zh.page.getByRole('button', { name: '刷新' }).count()).toBe(1);
      expect(await violations(zh.page)).toEqual([]);
      expect(zh.errors).toEqual([]);
    } finally {
      await zh.context.close();
    }
  });

  it('says so when no subscriber is registered', async () => {
    const { page } = session;
    await server.ctx.db.execute(sql`delete from event_subscribers`);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByTestId('event-delivery-empty').waitFor();
    expect(await page.getByTestId('event-delivery-empty').innerText()).toContain('No subscriber has registered yet');
  });

  it('raised no console errors', () => {
    expect(session.errors).toEqual([]);
  });
});
