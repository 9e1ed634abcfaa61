import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestServer } from '../../server/test/harness.ts';
import { shellDevice, type ShellDevice } from '../../server/test/shell/fixtures.ts';
import { launchBrowser, startConsoleServer } from './harness.ts';
import { openSignedIn, type Opened } from './pages.helpers.ts';

const terminalText = (page: Page, testId: string) => page.locator(`[data-testid=${testId}] .xterm-rows`).innerText();

describe('device shell page against the real server, broker and a mower', () => {
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let device: ShellDevice;
  let session: Opened;

  beforeAll(async () => {
    server = await startConsoleServer({ telemetryFlushMs: 50 });
    browser = await launchBrowser();
    device = await shellDevice(server);
    session = await openSignedIn(browser, server, '/device/shell');
  });

  afterAll(async () => {
    await session?.context.close();
    await browser?.cleanup();
    await device?.end();
    await server?.close();
  });

  it('opens a shell, runs status, ends it, then finds the recording and plays it', async () => {
    const { page } = session;
    await page.locator('[data-testid=shell-device-picker]').click();
    await page.keyboard.type(device.sn.slice(0, 6));
    await page.locator('.arco-select-option', { hasText: device.sn }).click();
    await page.locator('[data-testid=shell-open]').click();

    await expect.poll(() => page.locator('[data-testid=shell-status]').innerText()).toBe('Connected');
    await expect.poll(() => terminalText(page, 'shell-terminal')).toContain(`root@${device.sn.toLowerCase()}`);
    await page.locator('[data-testid=shell-terminal]').click();
    await page.keyboard.type('status');
    await page.keyboard.press('Enter');
    await expect.poll(() => terminalText(page, 'shell-terminal')).toMatch(/activity\s+mowing/);
    await page.screenshot({ path: '/tmp/shell-terminal-en.png' });

    await page.getByRole('button', { name: 'End session' }).click();
    await page.locator('.arco-popconfirm').getByRole('button', { name: /OK|Confirm/ }).click();
    await expect.poll(() => page.locator('[data-testid=shell-status]').innerText()).toBe('Ended · closed in the console');
    await expect.poll(() => terminalText(page, 'shell-terminal')).toContain('[Session ended: closed in the console]');

    await page.getByRole('tab', { name: 'Session history' }).click();
    const row = page.locator('.arco-table-tr', { hasText: device.sn });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/admin[\s\S]*closed in the console/);
    await row.locator('[data-testid=shell-play]').click();
    await expect.poll(() => terminalText(page, 'shell-playback-terminal'), { timeout: 15_000 }).toMatch(/activity\s+mowing/);
    await page.screenshot({ path: '/tmp/shell-playback-en.png' });
    expect(session.errors).toEqual([]);
  });

  it('shows in Chinese, in the dark theme, that the mower went offline', async () => {
    const other = await shellDevice(server);
    const zh = await openSignedIn(browser, server, '/device/shell', { locale: 'zh-CN', theme: 'dark' });
    try {
      const { page } = zh;
      await page.locator('[data-testid=shell-device-picker]').click();
      await page.keyboard.type(other.sn);
      await page.locator('.arco-select-option', { hasText: other.sn }).click();
      await page.locator('[data-testid=shell-open]').click();
      await expect.poll(() => page.locator('[data-testid=shell-status]').innerText()).toBe('已连接');
      await page.locator('[data-testid=shell-terminal]').click();
      await page.keyboard.type('ls /');
      await page.keyboard.press('Enter');
      await expect.poll(() => terminalText(page, 'shell-terminal')).toContain('etc/');
      await page.screenshot({ path: '/tmp/shell-terminal-zh-dark.png' });
      // The mower's connection drops: its will tells the platform, the platform tells the page.
      other.client.stream.destroy();
      await expect.poll(() => page.locator('[data-testid=shell-status]').innerText()).toBe('已结束 · 割草机已离线');
      await page.getByRole('tab', { name: '会话记录' }).click();
      await page.locator('.arco-table-tr', { hasText: other.sn }).waitFor();
      await page.screenshot({ path: '/tmp/shell-history-zh-dark.png' });
      expect(zh.errors).toEqual([]);
    } finally {
      await zh.context.close();
      await other.client.endAsync(true);
    }
  });
});
