import { it } from 'vitest';
import { writeFileSync } from 'node:fs';
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
  for (let i = 0; i < 12; i++) {
    const m = await mower(server, admin, modelId, `ML-DEMO-${String(i).padStart(4, '0')}`, { state: states[i % 6], battery: 10 + i * 7, position: i < 8 ? pos(59.33 + i * 0.0003, 18.06 + i * 0.0004) : pos(31.23 + i * 0.001, 121.47) }, { region: i < 8 ? 'eu-north' : 'asia-east', owner: `owner${i}@example.com` });
    ms.push(m);
    if (i % 3 === 0) await raise(m, 'BLADE_BLOCKED', 'major', 'Blade blocked by a branch');
    if (i % 4 === 0) await raise(m, 'UPSIDE_DOWN', 'critical', 'Tilted 120°');
  }
  await ms[11]!.end();
  for (const theme of ['light', 'dark'] as const) {
    for (const locale of ['en-US', 'zh-CN'] as const) {
      const s = await openSignedIn(browser, server, '/device/list', { theme, locale });
      const { page } = s;
      await page.waitForTimeout(2500);
      await page.screenshot({ path: `/tmp/dev-list-${theme}-${locale}.png` });
      if (theme === 'light' && locale === 'en-US') writeFileSync('/tmp/dev-list.html', await page.content());
      console.log('items', await page.locator('.device-filters .arco-form-item').count(), await page.locator('.device-filters .arco-form-item').filter({ has: page.locator('.arco-form-label-item', { hasText: 'State' }) }).locator('.arco-select').count());
      await page.locator('.arco-table-tr', { hasText: 'ML-DEMO-0003' }).getByRole('button', { name: /Details|详情/ }).click();
      await page.waitForTimeout(2500);
      await page.screenshot({ path: `/tmp/dev-detail-${theme}-${locale}.png` });
      await page.goto(`${server.url}/#/device/device-exception-event`);
      await page.waitForTimeout(2500);
      await page.screenshot({ path: `/tmp/dev-events-${theme}-${locale}.png` });
      await page.goto(`${server.url}/#/product/sn`);
      await page.waitForTimeout(2000);
      await page.screenshot({ path: `/tmp/dev-sn-${theme}-${locale}.png` });
      await page.goto(`${server.url}/#/device/device-map`);
      await page.waitForTimeout(4000);
      await page.screenshot({ path: `/tmp/dev-map-${theme}-${locale}.png` });
      writeFileSync(`/tmp/errors-${theme}-${locale}.txt`, s.errors.join('\n'));
      await s.context.close();
      if (locale === 'en-US' && theme === 'dark') break;
    }
  }
  for (const m of ms) await m.end().catch(() => {});
  await browser.cleanup();
  await server.close();
}, 300_000);
