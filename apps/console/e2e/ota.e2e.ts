import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OtaMower } from '../../fleet-sim/src/ota-mower.ts';
import type { TestServer } from '../../server/test/harness.ts';
import { firmwareImage, seedDevices, seedModel, startMowers, waitFor } from '../../server/test/ota/fixtures.ts';
import { launchBrowser, startConsoleServer } from './harness.ts';
import type { Page } from 'playwright-core';
import { confirmPopup, openSignedIn, row, type Opened } from './pages.helpers.ts';

/** Locale keys left visible anywhere on the page (modals and drawers included). */
async function untranslatedKeys(page: Page): Promise<string[]> {
  const text = await page.locator('body').innerText();
  return [...text.matchAll(/\b(?:ota|upgradeLog|appVersion|menu)\.[A-Za-z.]+\b/g)].map((m) => m[0]);
}

describe('firmware rollout from the console: upload, phased campaign, live progress, upgrade log', () => {
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let session: Opened;
  let mowers: OtaMower[] = [];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mowerline-ota-e2e-'));

  beforeAll(async () => {
    server = await startConsoleServer({ dataDir, otaTickMs: 200, telemetryFlushMs: 50 });
    server.config.publicUrl = server.url;
    browser = await launchBrowser();
    const model = await seedModel(server, 'MLX9');
    const { sns, secret } = await seedDevices(server, model.id, 20, 'E2EOTA');
    mowers = await startMowers(server, sns, secret, { firmware: '1.0.0', knobs: () => ({ installMs: 300 }) });
    session = await openSignedIn(browser, server, '/product/firmware');
  }, 120_000);

  afterAll(async () => {
    await Promise.all(mowers.map((m) => m.disconnect().catch(() => {})));
    await session?.context.close();
    await browser?.cleanup();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('uploads a firmware image with a moving progress bar and releases it', async () => {
    const { page, context } = session;
    // A slow uplink, so the bar has something to show.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 512 * 1024 });
    await page.getByTestId('ota-upload-open').click();
    const modal = page.locator('.arco-modal:visible');
    await modal.locator('.arco-form-item').filter({ hasText: 'Model' }).locator('.arco-select').click();
    await page.locator('.arco-select-popup:visible .arco-select-option').filter({ hasText: 'MLX9' }).click();
    await modal.getByTestId('ota-upload-version').fill('1.1.0');
    await modal.locator('textarea').first().fill('修复割草路径');
    await modal.locator('textarea').nth(1).fill('Better mowing paths');
    await page.getByTestId('ota-upload-file').setInputFiles({ name: 'mlx9-1.1.0.bin', mimeType: 'application/octet-stream', buffer: firmwareImage(2 * 1024 * 1024) });
    await modal.getByRole('button', { name: 'Upload', exact: true }).click();

    const seen = new Set<number>();
    const bar = page.getByTestId('ota-upload-progress');
    await bar.waitFor();
    while (await bar.isVisible().catch(() => false)) {
      const text = await bar.innerText().catch(() => '');
      const pct = Number(/(\d+)%/.exec(text)?.[1]);
      if (!Number.isNaN(pct)) seen.add(pct);
      await page.waitForTimeout(50);
    }
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    expect([...seen].some((p) => p > 0 && p < 100)).toBe(true);

    const uploaded = row(page, '1.1.0');
    await uploaded.waitFor();
    expect(await uploaded.innerText()).toMatch(/MLX9[\s\S]*Draft[\s\S]*Better mowing paths[\s\S]*2\.0 MB/);
    await uploaded.getByRole('button', { name: 'Release' }).click();
    await confirmPopup(page);
    await uploaded.filter({ hasText: 'Released' }).waitFor();
    await page.screenshot({ path: '/tmp/ota-firmware.png' });
  }, 120_000);

  it('starts a phased campaign and watches it reach every mower', async () => {
    const { page } = session;
    await page.locator('.arco-tabs-header-title').filter({ hasText: 'Update campaigns' }).click();
    await page.getByTestId('ota-campaign-new').click();
    const modal = page.locator('.arco-modal:visible');
    await modal.getByTestId('ota-campaign-name').fill('MLX9 spring update');
    await modal.locator('.arco-form-item').filter({ hasText: 'Version to roll out' }).locator('.arco-select').click();
    await page.locator('.arco-select-popup:visible .arco-select-option').filter({ hasText: 'MLX9 1.1.0' }).click();
    await modal.getByTestId('ota-campaign-phases').fill('10, 50, 100');
    // The rate limit is now spread over the minute (at most ceil(rate / 60) a second): 1200/min
    // keeps 20 mowers at a few seconds, as the old burst did.
    await modal.locator('.arco-form-item').filter({ hasText: 'Rate limit' }).locator('input').fill('1200');
    // The form says before creation what the campaign will do.
    expect(await modal.getByTestId('ota-campaign-preview').innerText()).toContain('20 of 20 devices will be updated');
    await modal.getByRole('button', { name: 'OK' }).click();

    const detail = page.getByTestId('ota-campaign-detail');
    await detail.waitFor();
    await detail.getByTestId('ota-campaign-chart').locator('canvas').waitFor();
    await page.getByTestId('ota-campaign-status').filter({ hasText: 'Completed' }).waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('ota-campaign-status').innerText()).toBe('Completed');
    expect(await page.getByTestId('ota-campaign-counts').innerText()).toContain('Success 20');
    expect(await page.getByTestId('ota-campaign-outcome').innerText()).toBe('Updated 20 · Skipped 0 · Failed 0');
    await page.screenshot({ path: '/tmp/ota-campaign.png' });
    await waitFor(() => mowers.every((m) => m.firmware() === '1.1.0'), 10_000);
  }, 90_000);

  it('reads the upgrade log of the campaign, each state with its time', async () => {
    const { page, errors } = session;
    await page.getByRole('button', { name: 'Upgrade log' }).click();
    await page.waitForURL(/#\/device\/upgrade-log/);
    const first = row(page, 'E2EOTA00000');
    await first.waitFor();
    expect(await first.innerText()).toMatch(/MLX9 spring update[\s\S]*Firmware[\s\S]*1\.0\.0 → 1\.1\.0[\s\S]*Success/);
    expect(await row(page, /E2EOTA\d+/).count()).toBe(20);
    await first.locator('.arco-table-expand-icon-cell button, .arco-table-expand-icon').first().click();
    const timeline = page.locator('.arco-timeline').first();
    await timeline.waitFor();
    expect(await timeline.innerText()).toMatch(/Queued[\s\S]*Sent[\s\S]*Downloading[\s\S]*Downloaded[\s\S]*Verified[\s\S]*Installing[\s\S]*Success/);
    await page.screenshot({ path: '/tmp/ota-upgrade-log.png' });
    expect(errors).toEqual([]);
  }, 60_000);

  it('reads well in Chinese and in the dark theme, with every string translated', async () => {
    const zh = await openSignedIn(browser, server, '/product/firmware', { locale: 'zh-CN', theme: 'dark' });
    try {
      const { page } = zh;
      await row(page, '1.1.0').waitFor();
      expect(await row(page, '1.1.0').innerText()).toContain('已发布');
      expect(await untranslatedKeys(page)).toEqual([]);
      await page.screenshot({ path: '/tmp/ota-firmware-zh-dark.png' });
      await page.locator('.arco-tabs-header-title').filter({ hasText: '升级任务' }).click();
      await row(page, 'MLX9 spring update').waitFor();
      expect(await row(page, 'MLX9 spring update').innerText()).toContain('已完成');
      await page.getByTestId('ota-campaign-new').click();
      await page.locator('.arco-modal:visible').waitFor();
      expect(await untranslatedKeys(page)).toEqual([]);
      await page.screenshot({ path: '/tmp/ota-campaign-new-zh-dark.png' });
      await page.keyboard.press('Escape');
      for (const hash of ['/device/upgrade-log', '/product/voice-version', '/product/app-change-log']) {
        await page.goto(`${server.url}/#${hash}`);
        await page.locator('.arco-table:visible').first().waitFor();
        expect(await untranslatedKeys(page)).toEqual([]);
        await page.screenshot({ path: `/tmp/ota${hash.replaceAll('/', '-')}-zh-dark.png` });
      }
      expect(zh.errors).toEqual([]);
    } finally {
      await zh.context.close();
    }
  }, 60_000);

  it('tells the truth about a rollout that can update nobody: refused range, preview, its own end state', async () => {
    const fresh = await openSignedIn(browser, server, '/product/firmware');
    const { page } = fresh;
    try {
      // An "upgradable from" above the version is refused in the form, before any byte is sent.
      await page.getByTestId('ota-upload-open').click();
      const upload = page.locator('.arco-modal:visible');
      await upload.getByTestId('ota-upload-version').fill('1.6.0');
      await upload.getByTestId('ota-upload-min-from').fill('9.9.9');
      await upload.getByText('"Upgradable from" must be below the version itself').waitFor();
      await upload.getByRole('button', { name: 'Cancel' }).click();

      // 1.2.0 upgradable from 1.1.5: every mower (on 1.1.0 now) is below it.
      const form = new FormData();
      for (const [k, v] of Object.entries({ modelId: String(await modelIdOf('MLX9')), version: '1.2.0', minFromVersion: '1.1.5' })) form.append(k, v);
      form.append('file', new Blob([new Uint8Array(firmwareImage(4096))]), 'mlx9-1.2.0.bin');
      const token = await server.login();
      const up = (await (await fetch(`${server.url}/api/admin/product/firmware`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })).json()) as { data: { id: number } };
      await server.api('PUT', `/api/admin/product/firmware/${up.data.id}`, { token, body: { status: 'released' } });

      await page.locator('.arco-tabs-header-title').filter({ hasText: 'Update campaigns' }).click();
      await page.getByTestId('ota-campaign-new').click();
      const modal = page.locator('.arco-modal:visible');
      await modal.getByTestId('ota-campaign-name').fill('MLX9 nobody');
      await modal.locator('.arco-form-item').filter({ hasText: 'Version to roll out' }).locator('.arco-select').click();
      await page.locator('.arco-select-popup:visible .arco-select-option').filter({ hasText: 'MLX9 1.2.0' }).click();
      const preview = modal.getByTestId('ota-campaign-preview');
      await preview.waitFor();
      expect(await preview.innerText()).toMatch(/No device would be updated[\s\S]*20 skipped: below the "upgradable from" version/);
      await modal.getByRole('button', { name: 'OK' }).click();

      const status = page.getByTestId('ota-campaign-status');
      await status.filter({ hasText: 'no device updated' }).waitFor({ timeout: 30_000 });
      expect(await status.innerText()).toBe('Completed – no device updated');
      expect(await page.getByTestId('ota-campaign-outcome').innerText()).toBe('Updated 0 · Skipped 20 · Failed 0');
      expect(await page.getByTestId('ota-campaign-phase-now').innerText()).toBe('All phases ended');
      expect(await page.getByTestId('ota-campaign-detail').innerText()).not.toContain('[');
      await page.keyboard.press('Escape');
      // The list refreshes on its own while a campaign runs.
      const listed = row(page, 'MLX9 nobody').filter({ hasText: 'no device updated' });
      await listed.waitFor({ timeout: 30_000 });
      expect(await listed.innerText()).toMatch(/Completed – no device updated[\s\S]*Updated 0 · Skipped 20 · Failed 0[\s\S]*All phases ended/);
      expect(fresh.errors).toEqual([]);
    } finally {
      await fresh.context.close();
    }
  }, 90_000);

  async function modelIdOf(code: string): Promise<number> {
    const { productModels } = await import('../../server/src/product/product.sql.ts');
    const { eq } = await import('drizzle-orm');
    const [m] = await server.ctx.db.select().from(productModels).where(eq(productModels.code, code));
    return m!.id;
  }
});
