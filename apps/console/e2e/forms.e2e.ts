import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppVersion } from '@mowerline/contract';
import type { TestServer } from '../../server/test/harness.ts';
import { firmwareImage } from '../../server/test/ota/fixtures.ts';
import { model, mower } from './devices.helpers.ts';
import { launchBrowser, startConsoleServer } from './harness.ts';
import { confirmPopup, openSignedIn, row, SETTLE, takeExpectedErrors, type Opened } from './pages.helpers.ts';

/** Issue 17 §10–11: forms refuse bad input with a clear message and change nothing silently. */
describe('forms refuse bad input; app versions can be edited and withdrawn', () => {
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let admin: string;
  const sessions: Opened[] = [];

  beforeAll(async () => {
    server = await startConsoleServer({ telemetryFlushMs: 50 });
    browser = await launchBrowser();
    admin = await server.login();
    const modelId = await model(server, admin, 'MLX1');
    const where = { position: { lat: 59.3293, lng: 18.0686, heading: 90 }, battery: 60 };
    await mower(server, admin, modelId, 'E2E-FORM-0001', { ...where, firmware: '1.4.2' }, { region: 'europe' });
    await mower(server, admin, modelId, 'E2E-FORM-0002', { ...where, firmware: '1.5.0' }, { region: 'asia' });
  });

  afterAll(async () => {
    for (const s of sessions) await s.context.close();
    await browser?.cleanup();
    await server?.close();
  });

  const open = async (hash: string, locale: 'zh-CN' | 'en-US' = 'en-US') => {
    const session = await openSignedIn(browser, server, hash, { locale });
    sessions.push(session);
    return session;
  };
  const formItem = (scope: Page | Locator, label: string | RegExp) => scope.locator('.arco-form-item:visible').filter({ hasText: label });

  it('the profile refuses a 300-character name instead of cutting it', async () => {
    const { page, errors } = await open('/user/center');
    await page.locator('[data-testid=profile-name]').waitFor();
    const name = formItem(page, /^\W*Name/).locator('input');
    await name.fill('N'.repeat(300));
    expect(await name.inputValue()).toHaveLength(300);
    await page.getByRole('button', { name: 'Save' }).click();
    await formItem(page, /^\W*Name/).getByText('At most 64 characters').waitFor();
    const info = await server.api<{ name: string }>('GET', '/api/admin/user/info', { token: admin });
    expect(info.body.data.name).not.toMatch(/^N+$/);
    expect(errors).toEqual([]);
  });

  it('an app version build of -5 is refused, not turned into 1', async () => {
    const { page } = await open('/product/app-change-log');
    await page.getByRole('button', { name: 'New release' }).click();
    const modal = page.locator('.arco-modal:visible');
    await formItem(modal, 'Version').first().locator('input').fill('3.0.0');
    const build = formItem(modal, 'Build').locator('input');
    await build.fill('-5');
    await build.blur();
    expect(await build.inputValue()).toBe('-5');
    await modal.getByRole('button', { name: 'OK' }).click();
    await formItem(modal, 'Build').getByText('A whole number from 1 to 2000000000').waitFor();
    const list = await server.api<{ total: number }>('GET', '/api/admin/product/app-version', { token: admin });
    expect(list.body.data.total).toBe(0);
  });

  it('app versions show their download link, can be edited, and are withdrawn after a confirmation', async () => {
    const created = await server.api<AppVersion>('POST', '/api/admin/product/app-version', {
      token: admin,
      body: { platform: 'android', version: '2.3.0', build: 230, changelogEn: 'Faster maps', downloadUrl: 'https://apps.example.com/ml-2.3.0.apk' },
    });
    const { page, errors } = await open('/product/app-change-log');
    const release = row(page, '2.3.0');
    await release.locator('a[href="https://apps.example.com/ml-2.3.0.apk"]').waitFor();
    await release.getByRole('button', { name: 'Edit' }).click();
    const modal = page.locator('.arco-modal:visible');
    await modal.locator('textarea').nth(1).fill('Faster maps and quieter nights');
    await modal.getByRole('button', { name: 'OK' }).click();
    await row(page, 'quieter nights').waitFor();
    await row(page, '2.3.0').getByRole('button', { name: 'Withdraw' }).click();
    await page.locator('.arco-popconfirm:visible').getByText(/Withdraw 2\.3\.0\?/).waitFor();
    await confirmPopup(page);
    await row(page, '2.3.0').getByTestId('withdrawn').waitFor();
    const after = await server.api<{ list: AppVersion[] }>('GET', '/api/admin/product/app-version', { token: admin });
    expect(after.body.data.list.find((v) => v.id === created.body.data.id)).toMatchObject({ changelogEn: 'Faster maps and quieter nights', withdrawnBy: 'admin' });
    expect(errors).toEqual([]);
  });

  it('a voice pack asks for its language instead of assuming zh-CN', async () => {
    const { page } = await open('/product/voice-version');
    await page.getByTestId('ota-upload-open').click();
    const modal = page.locator('.arco-modal:visible');
    await modal.locator('.arco-form-item').filter({ hasText: 'Model' }).locator('.arco-select').click();
    await page.locator('.arco-select-popup:visible .arco-select-option').filter({ hasText: 'MLX1' }).click();
    await modal.getByTestId('ota-upload-version').fill('1.0.0');
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), firmwareImage(2000)]);
    await page.getByTestId('ota-upload-file').setInputFiles({ name: 'voice.zip', mimeType: 'application/zip', buffer: zip });
    await modal.getByRole('button', { name: 'Upload', exact: true }).click();
    await modal.locator('.arco-form-item').filter({ hasText: 'Language' }).getByText('Choose the language').first().waitFor();
    const voices = await server.api<{ total: number }>('GET', '/api/admin/product/voice', { token: admin });
    expect(voices.body.data.total).toBe(0);
  });

  it('a menu width of 9999 is refused with its range; the menu keeps the width it shows', async () => {
    const { page } = await open('/dashboard/workplace');
    await page.getByTestId('settings-button').click();
    await page.getByTestId('settings-drawer').waitFor();
    const width = page.getByTestId('settings-menuWidth').locator('input');
    await width.fill('9999');
    await width.press('Enter');
    await page.getByTestId('settings-menuWidth-error').getByText('A whole number from 120 to 400; the menu stays at 220 px').waitFor();
    expect(await width.inputValue()).toBe('9999');
    expect((await page.locator('.layout-sider').boundingBox())?.width).toBe(220);
    await width.fill('300');
    await width.press('Enter');
    await expect.poll(async () => (await page.locator('.layout-sider').boundingBox())?.width, SETTLE).toBe(300);
    expect(await page.getByTestId('settings-menuWidth-error').count()).toBe(0);
  });

  it.each(['en-US', 'zh-CN'] as const)('%s: the device filters check the firmware in the form and offer the real regions', async (locale) => {
    const { page, errors } = await open('/device/list', locale);
    await row(page, 'E2E-FORM-0002').waitFor();
    const firmware = page.locator('.device-filters .arco-form-item').nth(4);
    await firmware.locator('input').fill('one.two');
    await firmware.locator('input').press('Enter');
    await firmware.getByText(locale === 'zh-CN' ? '请输入版本号，例如 1.4.2' : 'Enter a version such as 1.4.2').waitFor();
    expect(await page.locator('.arco-message').filter({ hasText: /Invalid request|请求参数错误/ }).count()).toBe(0);
    await firmware.locator('input').fill('');

    await page.getByTestId('device-filter-region').click();
    const options = page.locator('.arco-select-popup:visible .arco-select-option');
    await options.first().waitFor();
    expect(await options.allInnerTexts()).toEqual(locale === 'zh-CN' ? ['亚洲', '欧洲'] : ['Asia', 'Europe']);
    await options.filter({ hasText: locale === 'zh-CN' ? '欧洲' : 'Europe' }).click();
    await page.getByRole('button', { name: locale === 'zh-CN' ? '查询' : 'Search' }).click();
    await expect.poll(() => page.locator('.arco-table tbody tr.arco-table-tr:visible').allInnerTexts(), SETTLE).toEqual([expect.stringContaining('E2E-FORM-0001')]);
    takeExpectedErrors(errors, /Invalid request/);
    expect(errors).toEqual([]);
  });

  it('the API answers a bad firmware filter in the reader language', async () => {
    const en = await server.api('GET', '/api/admin/device?firmware=one.two', { token: admin, lang: 'en-US' });
    expect(en.body).toMatchObject({ code: 40000, msg: 'Invalid request: firmware: must be a semantic version such as 1.4.2' });
    const zh = await server.api('GET', '/api/admin/device?firmware=one.two', { token: admin, lang: 'zh-CN' });
    expect(zh.body).toMatchObject({ code: 40000, msg: '请求参数错误：firmware: 须为语义化版本号，例如 1.4.2' });
  });
});
