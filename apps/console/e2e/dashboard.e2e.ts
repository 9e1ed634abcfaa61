import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentItem, Page as ApiPage } from '@mowerline/contract';
import type { TestServer } from '../../server/test/harness.ts';
import { confirmedAppUser } from '../../server/test/end-users/fixtures.ts';
import { recordOpen } from '../../server/src/content/app-content.service.ts';
import { staffUsers } from '../../server/src/staff/staff.sql.ts';
import { launchBrowser, startConsoleServer } from './harness.ts';
import { openSignedIn, SETTLE, toast, untranslatedKeys } from './pages.helpers.ts';

const DAY = 86_400_000;

/**
 * The workplace against a real server: first with an empty database (every widget in its empty
 * state, no errors), then with published content opened by app users (popular lists with their
 * trend, the content chart, the attention list) in both languages and themes; and the content
 * page: an article written, published and seen through the app API.
 */
describe('workplace and app content', () => {
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let admin: string;
  const ok = async <T>(res: Promise<{ body: { code: number; data: T } }>): Promise<T> => {
    const { body } = await res;
    if (body.code !== 0) throw new Error(JSON.stringify(body));
    return body.data;
  };

  beforeAll(async () => {
    server = await startConsoleServer();
    browser = await launchBrowser();
    admin = await server.login();
  });
  afterAll(async () => {
    await browser?.cleanup();
    await server?.close();
  });

  it('empty database: every widget shows its empty state, without errors', async () => {
    const { page, errors, context } = await openSignedIn(browser, server, '/dashboard/workplace', { locale: 'en-US' });
    try {
      await page.locator('[data-testid=popular-empty]').waitFor(SETTLE);
      await page.locator('[data-testid=content-chart-empty]').waitFor(SETTLE);
      await expect.poll(() => page.locator('[data-testid=overview-online]').innerText(), SETTLE).toMatch(/0 \/ 0/);
      await expect.poll(() => page.locator('[data-testid=overview-app-users]').innerText(), SETTLE).toMatch(/\b0\b/);
      await expect.poll(() => page.locator('[data-testid=overview-tasks]').innerText(), SETTLE).toMatch(/\b0\b/);
      for (const type of ['image', 'video'] as const) {
        await page.locator(`[data-testid=popular-tab-${type}]`).click();
        await page.locator('[data-testid=popular-empty]').waitFor(SETTLE);
      }
      expect(await untranslatedKeys(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('with real data, in both languages and themes: popular lists, trend arrows, chart and the attention list', async () => {
    const users = await Promise.all([1, 2, 3].map(() => confirmedAppUser(server, admin)));
    const article = async (en: string, zh: string) => {
      const item = await ok(server.api<ContentItem>('POST', '/api/admin/content', { token: admin, body: { type: 'text', title: { 'zh-CN': zh, 'en-US': en }, body: { 'zh-CN': '正文', 'en-US': 'Body' } } }));
      await ok(server.api('PUT', `/api/admin/content/item/${item.id}/state`, { token: admin, body: { state: 'published' } }));
      return item;
    };
    const rising = await article('Blade care', '刀片保养');
    const falling = await article('Rain sensor', '雨水传感器');
    // Rising: 3 opens this week, 1 the week before (+200 %); falling: 1 this week, 3 before (−66.7 %).
    for (const [u, daysAgo] of [[0, 0], [1, 1], [2, 2], [0, 9]] as const) await recordOpen(server.ctx.db, rising.id, users[u]!.id, new Date(Date.now() - daysAgo * DAY));
    for (const [u, daysAgo] of [[0, 3], [0, 8], [1, 8], [2, 10]] as const) await recordOpen(server.ctx.db, falling.id, users[u]!.id, new Date(Date.now() - daysAgo * DAY));
    await server.ctx.db.insert(staffUsers).values({ username: 'e2e-pending', passwordHash: 'x', name: 'Pending Person', status: 'pending', role: 'user' });

    for (const { locale, theme, rise, fall } of [
      { locale: 'en-US', theme: 'light', rise: 'Blade care', fall: 'Rain sensor' },
      { locale: 'zh-CN', theme: 'dark', rise: '刀片保养', fall: '雨水传感器' },
    ] as const) {
      const { page, errors, context } = await openSignedIn(browser, server, '/dashboard/workplace', { locale, theme });
      try {
        const items = page.locator('[data-testid=popular-item]');
        await items.first().waitFor(SETTLE);
        expect(await items.count()).toBe(2);
        await expect.poll(() => items.nth(0).innerText()).toContain(rise);
        expect(await items.nth(0).locator('[data-trend]').getAttribute('data-trend')).toBe('up');
        expect(await items.nth(0).locator('[data-trend=up] .arco-icon-arrow-rise').count()).toBe(1);
        expect(await items.nth(0).innerText()).toContain('200%');
        expect(await items.nth(1).innerText()).toContain(fall);
        expect(await items.nth(1).locator('[data-trend=down] .arco-icon-arrow-fall').count()).toBe(1);
        // The chart loads lazily and draws a canvas.
        await page.locator('[data-testid=content-chart] canvas').waitFor(SETTLE);
        await page.locator('[data-testid=content-range-30]').click();
        await page.locator('[data-testid=content-chart] canvas').waitFor(SETTLE);
        // The account request is an attention item that opens the filtered staff page.
        const request = page.locator('[data-testid=notify-item][data-key=accountRequests]');
        await request.waitFor(SETTLE);
        expect(await request.innerText()).toContain('1');
        expect(await page.evaluate(() => document.body.getAttribute('arco-theme'))).toBe(theme === 'dark' ? 'dark' : null);
        expect(await untranslatedKeys(page)).toEqual([]);
        await request.click();
        await page.waitForURL((url) => url.hash.startsWith('#/system/system-user'));
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });

  it('content page: write an article, publish it, and the app lists it', async () => {
    const { page, errors, context } = await openSignedIn(browser, server, '/operation/content', { locale: 'en-US' });
    try {
      await page.locator('[data-testid=content-new]').click();
      await page.locator('[data-testid=content-title-zh-CN]').fill('割草高度建议');
      await page.locator('[data-testid=content-body-zh-CN]').fill('夏季建议 **45 mm**。');
      await page.getByRole('tab', { name: 'English' }).click();
      await page.locator('[data-testid=content-title-en-US]').fill('Recommended cutting height');
      await page.locator('[data-testid=content-body-en-US]').fill('In summer, **45 mm**. <script>alert(1)</script> [x](javascript:alert(1))');
      await page.locator('[data-testid=content-preview-toggle-en-US]').click();
      const preview = page.locator('[data-testid=content-preview-en-US]');
      await preview.locator('strong').waitFor();
      expect(await preview.locator('script, a').count()).toBe(0);
      expect(await preview.innerText()).toContain('<script>alert(1)</script>');
      await page.locator('[data-testid=content-save]').click();
      await toast(page, 'Saved');
      const row = page.locator('[data-testid=content-table] tbody tr').filter({ hasText: 'Recommended cutting height' });
      await row.waitFor(SETTLE);
      await row.locator('[data-testid=content-to-published]').click();
      await row.locator('[data-state=published]').waitFor(SETTLE);

      const user = await confirmedAppUser(server, admin, { locale: 'en-US' });
      const app = await ok(server.api<ApiPage<{ id: number; title: string }>>('GET', '/api/app/v1/content?type=text', { token: user.token }));
      expect(app.list.map((i) => i.title)).toContain('Recommended cutting height');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
