import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appRoutes,
  appUserStatuses,
  artifactStatuses,
  auditTargetTypes,
  campaignStatuses,
  deviceStates,
  emailStatuses,
  eventSeverities,
  eventStatuses,
  mowerActivities,
  roles,
  runResults,
  runStatuses,
  staffStatuses,
} from '@mowerline/contract';
import type { TestServer } from '../../server/test/harness.ts';
import { namedRegions } from '../src/devices/region-label.ts';
import { model, mower, raise, waitFor } from './devices.helpers.ts';
import { appUserId, launchBrowser, startConsoleServer } from './harness.ts';
import { createStaff, openSignedIn } from './pages.helpers.ts';

/** Every page of the route table (a new page is checked without being listed), and the message tabs. */
const pages = [
  ...appRoutes.flatMap((group) => (group.children ?? []).map((child) => `${group.path}/${child.path}`)),
  '/user/messages?type=notice',
  '/user/messages?type=todo',
];

/** An ISO 8601 timestamp as the API sends it (`2026-11-23T08:58:33.865Z`): never for a reader. */
const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/**
 * Machine values that must be turned into words before they reach the screen. A text node that is
 * exactly one of them (a tag, a cell) is raw. Role keys count in parentheses, as "(user)": alone,
 * `admin` is also the administrator's username.
 */
const rawKeys = new Set<string>([
  ...namedRegions,
  ...auditTargetTypes,
  ...deviceStates,
  ...mowerActivities,
  ...eventSeverities,
  ...eventStatuses,
  ...emailStatuses,
  ...appUserStatuses,
  ...artifactStatuses,
  ...campaignStatuses,
  ...staffStatuses,
  ...runResults,
  ...runStatuses,
]);
const RAW_ROLE = new RegExp(`\\((?:${roles.join('|')})\\)`);

/** The visible text nodes of the page on screen (pages kept alive by the tab bar are hidden). */
async function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.querySelector('#root') ?? document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const parent = node.parentElement;
      if (text && parent?.checkVisibility({ visibilityProperty: true, opacityProperty: true })) texts.push(text);
    }
    return texts;
  });
}

/** What on this page reads as a raw value: ISO times, raw keys, role keys in parentheses. */
async function rawText(page: Page): Promise<string[]> {
  return (await visibleTexts(page)).filter((text) => ISO_TIME.test(text) || rawKeys.has(text) || RAW_ROLE.test(text));
}

/** Tab names without their unread counts ("Notices (3)" → "Notices"). */
const tabNames = (texts: string[]) => texts.map((text) => text.replace(/\s*\(\d+\)$/, '').replace(/\d+$/, '').trim());

/**
 * Issue 17 §9, one language per screen: with real data on every page (devices in named regions,
 * a fault, staff, notices, app users, audit rows), no page in either language shows an ISO time or
 * a raw key, and the bell and the messages page name their tabs the same.
 */
describe('no raw values on screen, in both languages', () => {
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    server = await startConsoleServer({ telemetryFlushMs: 50 });
    browser = await launchBrowser();
    const admin = await server.login();
    const modelId = await model(server, admin, 'MLX1');
    const where = { position: { lat: 59.3293, lng: 18.0686, heading: 90 }, firmware: '1.4.2' };
    const europe = await mower(server, admin, modelId, 'E2E-RAW-0001', { state: 'mowing', activity: 'mowing', battery: 60, ...where }, { region: 'europe' });
    await mower(server, admin, modelId, 'E2E-RAW-0002', { state: 'charging', activity: 'charging', battery: 30, ...where }, { region: 'asia' });
    // A critical fault: a notice with a time in it, and an English device text next to the catalogue title.
    await raise(europe, 'BLADE_BLOCKED', 'critical', 'Blade motor current above limit');
    await waitFor(async () => (await server.api<{ total: number }>('GET', '/api/admin/device/event', { token: admin })).body.data.total === 1, 10_000, 'event');
    // A new account: a notice naming its role.
    await createStaff(server, admin, { username: 'jade', name: 'Jade Sun', email: 'jade@example.com', role: 'user' });
    await server.api('POST', '/api/admin/user/register', {
      body: { username: 'kim', name: 'Kim Lee', email: 'kim@example.com', password: 'Garden#Path7', reason: 'Night shift operator' },
    });
    await server.api('POST', '/api/app/v1/user/register', {
      body: { email: 'mere@example.com', password: 'Garden#Path7', name: 'Mere Tane', country: 'NZ', city: 'Auckland', locale: 'en-US', timeZone: 'Pacific/Auckland' },
    });
    await server.api('POST', `/api/admin/end-user/${await appUserId(server, 'mere@example.com')}/confirm`, { token: admin });
    await server.api('POST', '/api/admin/product/app-version', {
      token: admin,
      body: { platform: 'android', version: '2.3.0', build: 230, changelogZh: '更快的地图', changelogEn: 'Faster maps', downloadUrl: 'https://apps.example.com/ml-2.3.0.apk' },
    });
  });

  afterAll(async () => {
    await browser?.cleanup();
    await server?.close();
  });

  it.each(['zh-CN', 'en-US'] as const)('%s: every page', async (locale) => {
    expect(pages.length).toBeGreaterThan(20);
    const { page, context } = await openSignedIn(browser, server, '/dashboard/workplace', { locale });
    try {
      const found: Record<string, string[]> = {};
      for (const hash of pages) {
        await page.goto(`${server.url}/#${hash}`);
        await page.locator('.layout-navbar').waitFor();
        await page.waitForLoadState('networkidle');
        const raw = await rawText(page);
        if (raw.length > 0) found[hash] = raw;
      }
      expect(found).toEqual({});
    } finally {
      await context.close();
    }
  });

  it.each(['zh-CN', 'en-US'] as const)('%s: the region column, fault title and notices are in words', async (locale) => {
    const { page, context } = await openSignedIn(browser, server, '/device/list', { locale });
    try {
      const europe = locale === 'zh-CN' ? '欧洲' : 'Europe';
      await page.locator('.arco-table tbody tr:visible').filter({ hasText: 'E2E-RAW-0001' }).filter({ hasText: europe }).waitFor();
      await page.goto(`${server.url}/#/device/device-exception-event`);
      await page.getByText(locale === 'zh-CN' ? '刀盘被卡住' : 'Blade blocked', { exact: true }).and(page.locator(':visible')).first().waitFor();
      await page.getByText(locale === 'zh-CN' ? '设备消息' : 'Device message', { exact: true }).and(page.locator(':visible')).first().waitFor();
      await page.goto(`${server.url}/#/user/messages?type=notice`);
      await page.getByText(locale === 'zh-CN' ? 'jade（运营人员）' : 'jade (Operator)', { exact: false }).and(page.locator(':visible')).first().waitFor();
      expect(await rawText(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it.each(['zh-CN', 'en-US'] as const)('%s: the bell and the messages page name the tabs the same', async (locale) => {
    const { page, context } = await openSignedIn(browser, server, '/user/messages', { locale });
    try {
      await page.locator('[data-testid=tab-todo]').waitFor();
      const onPage = tabNames(await page.locator('[data-testid=tab-message], [data-testid=tab-notice], [data-testid=tab-todo]').allInnerTexts());
      await page.getByTestId('message-box-button').click();
      await page.getByTestId('message-box-tab-todo').waitFor();
      const inBell = tabNames(await page.locator('[data-testid=message-box] [data-testid^=message-box-tab-]').allInnerTexts());
      expect(onPage).toHaveLength(3);
      expect(inBell).toEqual(onPage);
    } finally {
      await context.close();
    }
  });
});
