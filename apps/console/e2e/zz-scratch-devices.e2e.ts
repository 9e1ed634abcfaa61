import { it } from 'vitest';
import { launchBrowser } from './harness.ts';
import { openSignedIn } from './pages.helpers.ts';
import { model, mower, raise, startDeviceConsoleServer } from './devices.helpers.ts';

it('screens', async () => {
  const server = await startDeviceConsoleServer();
  const browser = await launchBrowser();
  const admin = await server.login();
  const modelId = await model(server, admin, 'MLX1');
  const pos = (lat: number, lng: number) => ({ lat, lng, heading: 0 });
  const ms = [];
  const states = ['mowing', 'charging', 'returning', 'error', 'idle', 'paused'] as const;
  for (let i = 0; i < 8; i++) {
    const m = await mower(server, admin, modelId, `ML-DEMO-${String(i).padStart(4, '0')}`, { state: states[i % 6], battery: 10 + i * 11, position: i < 5 ? pos(48.85 + i * 0.01, 2.35 + i * 0.01) : pos(35.68 + i * 0.01, 139.69) }, { region: i < 5 ? 'eu-west' : 'asia-east', owner: `owner${i}@example.com` });
    ms.push(m);
    if (i % 3 === 0) await raise(m, 'BLADE_BLOCKED', 'major', 'Blade blocked by a branch');
    if (i % 4 === 0) await raise(m, 'UPSIDE_DOWN', 'critical', 'Tilted 120°');
  }
  for (const [theme, locale] of [['dark', 'zh-CN'], ['light', 'en-US']] as const) {
    const s = await openSignedIn(browser, server, '/device/list', { theme, locale });
    const { page } = s;
    await page.waitForTimeout(2000);
    await page.screenshot({ path: `/tmp/dev2-list-${theme}-${locale}.png` });
    await page.locator('.arco-table-tr:visible', { hasText: 'ML-DEMO-0003' }).getByRole('button', { name: /Details|详情/ }).click();
    await page.waitForTimeout(2000);
    await page.screenshot({ path: `/tmp/dev2-detail-${theme}-${locale}.png` });
    await page.goto(`${server.url}/#/device/device-exception-event`);
    await page.waitForTimeout(2000);
    await page.screenshot({ path: `/tmp/dev2-events-${theme}-${locale}.png` });
    await page.goto(`${server.url}/#/product/sn`);
    await page.waitForTimeout(1500);
    await page.getByRole('button', { name: /Import CSV|导入 CSV/ }).click();
    await page.locator('.arco-modal input[type=file]').setInputFiles({ name: 'sns.csv', mimeType: 'text/csv', buffer: Buffer.from('sn,model,region\nE2E-IMP-0001,MLX1,eu-north\nE2E-IMP-0002,NOPE,eu-north\nbad sn!,MLX1,\nML-DEMO-0001,MLX1,\n') });
    await page.locator('.arco-modal-footer').getByRole('button').last().click();
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `/tmp/dev2-import-${theme}-${locale}.png` });
    await page.keyboard.press('Escape');
    await page.goto(`${server.url}/#/device/device-map`);
    await page.waitForTimeout(5000);
    await page.screenshot({ path: `/tmp/dev2-map-${theme}-${locale}.png` });
    await page.locator('[data-testid=fleet-cluster]').first().click();
    await page.waitForTimeout(4000);
    await page.screenshot({ path: `/tmp/dev2-mapzoom-${theme}-${locale}.png` });
    console.log('ERRS', theme, s.errors);
    await s.context.close();
  }
  for (const m of ms) if (m.client.connected) await m.end();
  await browser.cleanup();
  await server.close();
}, 300_000);
