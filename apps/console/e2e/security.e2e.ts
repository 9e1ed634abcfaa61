import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRoutes } from '@mowerline/contract';
import type { TestServer } from '../../server/test/harness.ts';
import { model, mower, raise, waitFor } from './devices.helpers.ts';
import { ADMIN, appUserId, launchBrowser, startConsoleServer } from './harness.ts';
import { createStaff, openSignedIn } from './pages.helpers.ts';
import { open, submitLogin } from './shell.helpers.ts';

/** Issue 12 §11: stored text from devices and users, as an attacker would write it. */
const EVENT_MESSAGE = '<img src=x onerror=alert(1)>';
const STAFF_NAME = '<script>alert(2)</script>Eve';
const REQUEST_NAME = '<img src=y onerror=alert(3)>';
const TICKET_TEXT = '<script>alert(4)</script><img src=x onerror=alert(5)>';

/** Every page of the route table, so a new page is checked without being listed here. */
const pages = appRoutes.flatMap((group) => (group.children ?? []).map((child) => `${group.path}/${child.path}`));

/**
 * Collects what the browser refused under the CSP (the `securitypolicyviolation` event and the
 * console's "Content Security Policy" messages) and every dialog an injected script would open.
 */
async function watch(context: BrowserContext, page: Page) {
  await context.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] };
    w.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const console: string[] = [];
  const dialogs: string[] = [];
  page.on('console', (msg) => {
    if (/Content.Security.Policy/i.test(msg.text())) console.push(msg.text());
  });
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const violations = async () => [...console, ...(await page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? []))];
  return { dialogs, violations };
}

describe('security in the browser: the CSP on every page, stored text rendered as text', () => {
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let ticketId: number;

  beforeAll(async () => {
    server = await startConsoleServer({ telemetryFlushMs: 50, captchaWork: 300 });
    browser = await launchBrowser();
    const admin = await server.login();
    const modelId = await model(server, admin, 'MLX1');
    const device = await mower(server, admin, modelId, 'E2E-XSS-0001', { state: 'mowing', activity: 'mowing', battery: 50, position: { lat: 59.3293, lng: 18.0686, heading: 90 }, firmware: '1.4.2' });
    await raise(device, 'BLADE_BLOCKED', 'critical', EVENT_MESSAGE);
    await waitFor(async () => (await server.api<{ total: number }>('GET', '/api/admin/device/event', { token: admin })).body.data.total === 1, 10_000, 'event');
    await createStaff(server, admin, { username: 'eve', name: STAFF_NAME, email: 'eve@example.com', role: 'user' });
    await server.api('POST', '/api/admin/user/register', {
      body: { username: 'mallory', name: REQUEST_NAME, email: 'mallory@example.com', password: 'Garden#Path7', reason: EVENT_MESSAGE },
    });
    // An app user's feedback with markup in its title and text.
    await server.api('POST', '/api/app/v1/user/register', {
      body: { email: 'trent@example.com', password: 'Garden#Path7', name: 'Trent', country: 'SE', locale: 'en-US', timeZone: 'Europe/Stockholm' },
    });
    await server.api('POST', `/api/admin/end-user/${await appUserId(server, 'trent@example.com')}/confirm`, { token: admin });
    const login = await server.api<{ access_token: string }>('POST', '/api/app/v1/user/login', { body: { email: 'trent@example.com', password: 'Garden#Path7' } });
    const filed = await server.api<{ id: number }>('POST', '/api/app/v1/feedback', {
      token: login.body.data.access_token,
      body: { category: 'other', title: TICKET_TEXT, description: TICKET_TEXT },
    });
    ticketId = filed.body.data.id;
  });

  afterAll(async () => {
    await browser?.cleanup();
    await server?.close();
  });

  // One cold reload per page of the route table (about 2 s each on a busy two-core machine): the
  // time grows with the table, so this test gets more than the default minute.
  it('every page loads with zero CSP violations (maplibre worker, ECharts, xterm included)', { timeout: 300_000 }, async () => {
    expect(pages.length).toBeGreaterThan(10);
    const { page, context, errors } = await openSignedIn(browser, server, '/dashboard/workplace');
    const { violations } = await watch(context, page);
    try {
      for (const hash of pages) {
        await page.goto(`${server.url}/#${hash}`);
        await page.reload();
        await page.locator('.layout-navbar').waitFor();
        await page.waitForLoadState('networkidle');
        if (hash === '/device/device-map') await page.locator('.maplibregl-canvas').waitFor();
        expect(await violations(), hash).toEqual([]);
      }
      expect(errors.filter((e) => /Content.Security.Policy/i.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('device and user text shows as text on every page that shows it: no script runs, the text is visible', async () => {
    const { page, context } = await openSignedIn(browser, server, '/dashboard/workplace');
    const { dialogs, violations } = await watch(context, page);
    try {
      const visit = async (hash: string, text: string) => {
        await page.goto(`${server.url}/#${hash}`);
        // Pages kept in the tab bar stay in the document, hidden: look at the one on screen.
        await page.getByText(text, { exact: false }).and(page.locator(':visible')).first().waitFor();
      };
      await visit('/device/device-exception-event', EVENT_MESSAGE);
      await visit('/device/list', 'E2E-XSS-0001');
      await page.getByRole('button', { name: 'Details' }).first().click();
      // The drawer lists the device's recent events by code; it opens with no script of the message running.
      await page.locator('[data-testid=device-detail]').waitFor();
      await visit('/system/system-user', STAFF_NAME);
      await visit('/system/system-user?status=pending', REQUEST_NAME);
      await visit('/system/system-log', 'eve');
      await visit('/user/messages?type=notice', EVENT_MESSAGE);
      await visit('/user/messages?type=todo', REQUEST_NAME);
      await visit('/ticket/list', TICKET_TEXT);
      await visit(`/ticket/detail?id=${ticketId}`, TICKET_TEXT);
      expect(dialogs).toEqual([]);
      expect(await page.evaluate(() => document.querySelectorAll('img[src="x"], img[src="y"]').length)).toBe(0);
      expect(await violations()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the sign-in captcha (ALTCHA widget, loaded on demand, solving in a worker) works under the CSP', async () => {
    const { page, context } = await open(browser, server, '/login');
    const { violations } = await watch(context, page);
    await page.reload();
    for (let i = 0; i < server.config.captchaAfterFailures; i++) {
      const refused = page.waitForResponse((r) => r.url().endsWith('/api/admin/user/login'));
      await submitLogin(page, ADMIN.username, `wrong-${i}`);
      await refused;
    }
    await page.locator('altcha-widget').waitFor();
    await page.locator('altcha-widget').getByText('Verified').waitFor();
    await submitLogin(page, ADMIN.username, ADMIN.password);
    await page.waitForURL(/#\/dashboard\/workplace/);
    expect(await violations()).toEqual([]);
    await context.close();
  });
});
