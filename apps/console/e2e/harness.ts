import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { startServer, type TestServer } from '../../server/test/harness.ts';
import type { Config } from '../../server/src/config.ts';
import { appUsers } from '../../server/src/end-users/end-users.sql.ts';

export { ADMIN } from '../../server/test/harness.ts';

// CONSOLE_DIST lets a run test its own build while another build rewrites dist/ (shared machine).
const consoleDir = process.env.CONSOLE_DIST ?? path.resolve(import.meta.dirname, '../dist');

/** A real server (PGlite or TEST_DATABASE_URL) serving the production console build on a free port. */
export function startConsoleServer(config: Partial<Config> = {}): Promise<TestServer> {
  return startServer({ config: { consoleDir, ...config } });
}

/** The id of the app account with `email`: the sign-up answer names none (it is the same for a taken e-mail). */
export async function appUserId(server: TestServer, email: string): Promise<number> {
  const [row] = await server.ctx.db.select({ id: appUsers.id }).from(appUsers).where(eq(appUsers.email, email.toLowerCase()));
  if (!row) throw new Error(`no app account for ${email}`);
  return row.id;
}

/** Debian's Chromium, headless, with the flags this machine needs (DESIGN.md). */
export async function launchBrowser(): Promise<Browser & { cleanup(): Promise<void> }> {
  // playwright refuses `--user-data-dir` with launch(); it gives every launch a fresh temporary profile itself.
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return Object.assign(browser, {
    async cleanup() {
      await browser.close();
    },
  });
}

/** A fresh browser profile (empty storage) on the console, collecting console errors and warnings. */
export async function openConsole(
  browser: Browser,
  server: TestServer,
  hash = '/',
  opts: { locale?: 'zh-CN' | 'en-US' } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  if (opts.locale) {
    await context.addInitScript((locale) => {
      if (!localStorage.getItem('locale')) localStorage.setItem('locale', locale);
    }, opts.locale);
  }
  const page = await context.newPage();
  const errors = collectConsoleProblems(page);
  await page.goto(`${server.url}/#${hash}`);
  return { context, page, errors };
}

/**
 * Console warnings that are not ours to fix, each with the reason. Keep it short: every other
 * warning fails the suite like an error does (a warning is a bug someone has not read yet).
 */
export const ALLOWED_WARNINGS: ReadonlyArray<{ pattern: RegExp; reason: string }> = [
  {
    pattern: /GL Driver Message \(OpenGL, Performance, .*\): GPU stall due to ReadPixels/,
    reason: "Chromium's software WebGL (no GPU here) notes its own slowness when the MapLibre maps read pixels; the browser's, not the page's",
  },
];

/**
 * Collects what a page reports as going wrong: console errors, console warnings (minus the
 * allowed ones) and uncaught exceptions. Suites expect the list to be empty at the end.
 */
export function collectConsoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (msg) => {
    const type = msg.type();
    if (type !== 'error' && type !== 'warning') return;
    // A failed resource load names its URL only in the location.
    const line = `${msg.text()} ${msg.location().url ?? ''}`.trim();
    if (type === 'warning' && ALLOWED_WARNINGS.some((w) => w.pattern.test(line))) return;
    problems.push(type === 'warning' ? `[warning] ${line}` : line);
  });
  page.on('pageerror', (err) => problems.push(err.message));
  return problems;
}
