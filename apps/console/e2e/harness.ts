import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startServer, type TestServer } from '../../server/test/harness.ts';
import type { Config } from '../../server/src/config.ts';

export { ADMIN } from '../../server/test/harness.ts';

// CONSOLE_DIST lets a run test its own build while another build rewrites dist/ (shared machine).
const consoleDir = process.env.CONSOLE_DIST ?? path.resolve(import.meta.dirname, '../dist');

/** A real server (PGlite or TEST_DATABASE_URL) serving the production console build on a free port. */
export function startConsoleServer(config: Partial<Config> = {}): Promise<TestServer> {
  return startServer({ config: { consoleDir, ...config } });
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

/** A fresh browser profile (empty storage) on the console, collecting console errors. */
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
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto(`${server.url}/#${hash}`);
  return { context, page, errors };
}
