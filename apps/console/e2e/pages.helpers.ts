import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { TestServer } from '../../server/test/harness.ts';
import { ADMIN } from './harness.ts';

/** How long a page may take to show a server change on a busy two-core machine. */
export const SETTLE = { timeout: 15_000, interval: 100 };

export interface Opened {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions seen so far. */
  errors: string[];
}

/**
 * A fresh browser profile on `hash`, signed in through the sign-in page (the guard sends us there
 * and back to `hash` afterwards). Language and theme are seeded in storage before the first load.
 */
export async function openSignedIn(
  browser: Browser,
  server: TestServer,
  hash: string,
  opts: { username?: string; password?: string; locale?: 'zh-CN' | 'en-US'; theme?: 'light' | 'dark'; width?: number } = {},
): Promise<Opened> {
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1440, height: 900 } });
  await context.addInitScript(
    ({ locale, theme }) => {
      if (!localStorage.getItem('locale')) localStorage.setItem('locale', locale);
      if (theme === 'dark' && !localStorage.getItem('mowerline-settings')) {
        localStorage.setItem('mowerline-settings', JSON.stringify({ state: { theme: 'dark' }, version: 0 }));
      }
    },
    { locale: opts.locale ?? 'en-US', theme: opts.theme ?? 'light' },
  );
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (msg) => {
    // A failed resource load names its URL only in the location.
    if (msg.type() === 'error') errors.push(`${msg.text()} ${msg.location().url ?? ''}`.trim());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto(`${server.url}/#${hash}`);
  await page.locator('input[name=username]').fill(opts.username ?? ADMIN.username);
  await page.locator('input[name=password]').fill(opts.password ?? ADMIN.password);
  await page.locator('button[type=submit]').click();
  await page.waitForURL((url) => !url.hash.startsWith('#/login'));
  return { context, page, errors };
}

/** Waits for a toast (Arco Message) with this text. */
export async function toast(page: Page, text: string | RegExp): Promise<void> {
  await page.locator('.arco-message').filter({ hasText: text }).first().waitFor();
}

/** The body row of an Arco table holding this text. */
export function row(scope: Page | Locator, text: string | RegExp): Locator {
  // Pages kept alive by the tab bar stay in the DOM, hidden: only the page on screen counts.
  return scope.locator('.arco-table tbody tr.arco-table-tr:visible').filter({ hasText: text });
}

/** Picks an option of the Arco Select showing `current` (its placeholder or value). */
export async function choose(page: Page, current: string | RegExp, option: string | RegExp, scope: Page | Locator = page): Promise<void> {
  await scope.locator('.arco-select').filter({ hasText: current }).first().click();
  await page.locator('.arco-select-popup:visible .arco-select-option').filter({ hasText: option }).first().click();
}

/** Confirms the open Popconfirm. */
export async function confirmPopup(page: Page): Promise<void> {
  await page.locator('.arco-popconfirm:visible').getByRole('button').last().click();
}

/** A staff account straight through the API, as an admin would create it. */
export async function createStaff(
  server: TestServer,
  token: string,
  body: { username: string; name: string; email: string; role: 'admin' | 'user'; password?: string },
): Promise<number> {
  const res = await server.api<{ id: number }>('POST', '/api/admin/user', { token, body });
  if (res.body.code !== 0) throw new Error(`create ${body.username}: ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

/** Finds one staff account through the API (server state, not what the page shows). */
export async function staffNamed(server: TestServer, token: string, username: string) {
  const res = await server.api<{ list: Array<{ id: number; username: string; name: string; role: string; status: string; email: string }> }>(
    'GET',
    `/api/admin/user?keyword=${encodeURIComponent(username)}`,
    { token },
  );
  return res.body.data.list.find((u) => u.username === username);
}

/** Text on the page that looks like a missing translation key (`staff.column.user`). */
export async function untranslatedKeys(page: Page): Promise<string[]> {
  const text = await page.locator('#root').innerText();
  return [...text.matchAll(/\b(?:staff|systemLog|emailLog|userCenter|workplace|messagesPage|audit|password|menu|endUser|userLog|userDist|task|taskOverview|taskSchedule|taskRun|taskFault|ticket|contentPage)\.[A-Za-z.-]+\b/g)].map((m) => m[0]);
}

/** Removes the console lines of an HTTP refusal the test provoked on purpose; returns how many there were. */
export function takeExpectedErrors(errors: string[], pattern: RegExp): number {
  const kept = errors.filter((line) => !pattern.test(line));
  const taken = errors.length - kept.length;
  errors.splice(0, errors.length, ...kept);
  return taken;
}
