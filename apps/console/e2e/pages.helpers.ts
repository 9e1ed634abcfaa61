import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { pageRoutes } from '../src/router/route-table.ts';
import { routeAllowed } from '../src/router/guard.ts';
import type { TestServer } from '../../server/test/harness.ts';
import { ADMIN, collectConsoleProblems } from './harness.ts';

/** How long a page may take to show a server change on a busy two-core machine. */
export const SETTLE = { timeout: 15_000, interval: 100 };

export interface Opened {
  context: BrowserContext;
  page: Page;
  /** Console errors, console warnings and uncaught exceptions seen so far. */
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
  const errors = collectConsoleProblems(page);
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

/**
 * Picks an option of the Arco Select showing `current` (its placeholder or value). With `search`,
 * types it first: a long list renders only the options in view.
 */
export async function choose(page: Page, current: string | RegExp, option: string | RegExp, scope: Page | Locator = page, search?: string): Promise<void> {
  await scope.locator('.arco-select').filter({ hasText: current }).first().click();
  if (search) await page.keyboard.type(search);
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
  return [...text.matchAll(/\b(?:staff|systemLog|emailLog|userCenter|workplace|messagesPage|audit|password|menu|endUser|userLog|userDist|task|taskOverview|taskSchedule|taskRun|taskFault|ticket|contentPage|eventDelivery)\.[A-Za-z.-]+\b/g)].map((m) => m[0]);
}

/** Removes the console lines of an HTTP refusal the test provoked on purpose; returns how many there were. */
export function takeExpectedErrors(errors: string[], pattern: RegExp): number {
  const kept = errors.filter((line) => !pattern.test(line));
  const taken = errors.length - kept.length;
  errors.splice(0, errors.length, ...kept);
  return taken;
}

/**
 * Every page of the contract's route table the role may open, in menu order: suites that check
 * all pages read this, so a page added to the table is checked without touching them.
 */
export function everyPage(role: 'admin' | 'user' = 'admin'): Array<{ name: string; hash: string }> {
  return pageRoutes()
    .filter((page) => routeAllowed(page, role))
    .map((page) => ({ name: page.name, hash: page.fullPath }));
}

const pending = new WeakMap<Page, Set<unknown>>();

/** Starts counting a page's requests in flight (openPage waits for none). */
function trackRequests(page: Page): Set<unknown> {
  let set = pending.get(page);
  if (!set) {
    const inFlight = new Set<unknown>();
    page.on('request', (r) => inFlight.add(r));
    page.on('requestfinished', (r) => inFlight.delete(r));
    page.on('requestfailed', (r) => inFlight.delete(r));
    pending.set(page, inFlight);
    set = inFlight;
  }
  return set;
}

/**
 * Opens a page in the signed-in console (in-app navigation, as the menu does, then a reload
 * when asked) and waits until it has drawn its data: its code loaded, no spinner or skeleton on screen, no request in flight.
 */
export async function openPage(page: Page, hash: string, opts: { fresh?: boolean } = {}): Promise<void> {
  const inFlight = trackRequests(page);
  await page.evaluate((h) => void (location.hash = h), hash);
  // A fresh document: the pages kept alive by the tab bar would otherwise pile up in the DOM.
  if (opts.fresh) await page.reload();
  await page.waitForURL((url) => url.hash.startsWith(`#${hash}`));
  await page.locator('.layout-page').waitFor();
  const quiet = async () =>
    inFlight.size === 0 &&
    (await page.evaluate(
      () =>
        !document.querySelector('.page-loading') &&
        ![...document.querySelectorAll('.layout-page .arco-spin-loading, .layout-page .arco-skeleton')].some((el) => (el as HTMLElement).offsetParent !== null),
    ));
  const until = Date.now() + SETTLE.timeout;
  // Quiet twice in a row: a list answer often triggers the next request (counts, details).
  for (let streak = 0; streak < 2; ) {
    if (Date.now() > until) throw new Error(`${hash} did not settle`);
    await new Promise((r) => setTimeout(r, SETTLE.interval));
    streak = (await quiet()) ? streak + 1 : 0;
  }
}
