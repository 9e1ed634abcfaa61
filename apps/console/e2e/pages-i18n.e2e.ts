import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../server/test/harness.ts';
import { appUserId, launchBrowser, startConsoleServer } from './harness.ts';
import { createStaff, openSignedIn, untranslatedKeys } from './pages.helpers.ts';

/** Every page of this issue, by route, with something on it that shows it finished loading. */
const pages = [
  { hash: '/dashboard/workplace', ready: '[data-testid=greeting]' },
  { hash: '/system/system-user', ready: '[data-username]' },
  { hash: '/system/system-log', ready: 'td [data-action]' },
  { hash: '/system/email-log', ready: 'td [data-status]' },
  { hash: '/user/center', ready: '[data-testid=profile-name]' },
  { hash: '/user/messages?type=notice', ready: '[data-message-id]' },
  { hash: '/operation/user', ready: 'td [data-status=active]' },
  { hash: '/operation/user-distribution', ready: '[data-country=NZ]' },
  { hash: '/operation/user-log', ready: 'td [data-action=register]' },
  // No mower has reported yet: the task pages show their empty states.
  { hash: '/task/task-overview', ready: '[data-testid=task-overview-cards]' },
  { hash: '/task/task-list', ready: '[data-testid=task-schedule-empty]' },
  { hash: '/task/task-record', ready: '[data-testid=task-run-empty]' },
  { hash: '/task/task-fault', ready: '[data-testid=task-fault-groups-empty]' },
  { hash: '/ticket/list', ready: 'td [data-status=new]' },
  { hash: '/ticket/detail?id=1', ready: '[data-testid=ticket-thread]' },
  // Without an id the detail says so and points to the list.
  { hash: '/ticket/detail', ready: '[data-testid=ticket-detail-none]' },
];

/**
 * Both languages and both themes: every page renders its own strings (no raw locale keys) with no
 * console errors. SCREENSHOT_DIR=/tmp/x keeps a screenshot of each for a human look.
 */
describe('pages in both languages and both themes', () => {
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    server = await startConsoleServer();
    browser = await launchBrowser();
    const admin = await server.login();
    await createStaff(server, admin, { username: 'jade', name: 'Jade Sun', email: 'jade@example.com', role: 'user' });
    await server.api('POST', '/api/admin/user/register', {
      body: { username: 'kim', name: 'Kim Lee', email: 'kim@example.com', password: 'Garden#Path7', reason: 'Night shift operator' },
    });
    // An app user, signed up through the app API and confirmed by staff, for the /operation pages.
    await server.api('POST', '/api/app/v1/user/register', {
      body: { email: 'mere@example.com', password: 'Garden#Path7', name: 'Mere Tane', country: 'NZ', city: 'Auckland', locale: 'en-US', timeZone: 'Pacific/Auckland' },
    });
    await server.api('POST', `/api/admin/end-user/${await appUserId(server, 'mere@example.com')}/confirm`, { token: admin });
    // Mere files feedback from the app, for the /ticket pages.
    const login = await server.api<{ access_token: string }>('POST', '/api/app/v1/user/login', { body: { email: 'mere@example.com', password: 'Garden#Path7' } });
    const filed = await server.api('POST', '/api/app/v1/feedback', {
      token: login.body.data.access_token,
      body: { category: 'app', title: 'Schedule not saved', description: 'The schedule resets after I save it.' },
    });
    if (filed.body.code !== 0) throw new Error(JSON.stringify(filed.body));
  });

  afterAll(async () => {
    await browser?.cleanup();
    await server?.close();
  });

  it.each([
    { locale: 'zh-CN', theme: 'light' },
    { locale: 'en-US', theme: 'dark' },
  ] as const)('$locale, $theme', async ({ locale, theme }) => {
    const { page, errors, context } = await openSignedIn(browser, server, pages[0]!.hash, { locale, theme });
    try {
      expect(await page.evaluate(() => document.body.getAttribute('arco-theme'))).toBe(theme === 'dark' ? 'dark' : null);
      for (const { hash, ready } of pages) {
        await page.goto(`${server.url}/#${hash}`);
        await page.locator(`${ready}:visible`).first().waitFor();
        expect(await untranslatedKeys(page), hash).toEqual([]);
        if (process.env.SCREENSHOT_DIR) {
          await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/${hash.replace(/\W+/g, '-').slice(1)}.${locale}.${theme}.png` });
        }
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
