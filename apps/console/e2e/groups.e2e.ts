import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Campaign, DeviceGroup } from '@mowerline/contract';
import { deviceState } from '../../server/src/devices/devices.sql.ts';
import type { TestServer } from '../../server/test/harness.ts';
import { releasedFirmware, seedDevices, seedModel } from '../../server/test/ota/fixtures.ts';
import { launchBrowser, startConsoleServer } from './harness.ts';
import { openSignedIn, row, toast, untranslatedKeys } from './pages.helpers.ts';

/** Serious WCAG AA findings on the page as it is, minus Arco's known ones (see a11y.e2e.ts). */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const known = [/arco-tabs/, /arco-pagination-option/, /arco-table-th-item > \.arco-checkbox/, /arco-table-content-inner/, /arco-list-content/];
  return result.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .flatMap((v) => v.nodes.map((n) => `${v.id} at ${n.target.map(String).join(' ')}`))
    .filter((s) => !known.some((k) => k.test(s)));
}

const flows = [
  { locale: 'en-US', theme: 'light', ring: 'beta', group: 'Beta ring', campaign: 'Beta rollout', tagButton: 'Tag devices', newGroup: 'New group', campaigns: 'Update campaigns', groupsTarget: 'Device groups', done: 'Tags changed on 3 devices' },
  { locale: 'zh-CN', theme: 'dark', ring: 'canary', group: '金丝雀', campaign: '金丝雀升级', tagButton: '批量打标签', newGroup: '新建分组', campaigns: '升级任务', groupsTarget: '设备分组', done: '已修改 3 台设备的标签' },
] as const;

/** Tag mowers in bulk, make a dynamic group of them, and start a campaign on the group, in each language. */
describe('device groups from the console: bulk tags, a dynamic group, a campaign on it', () => {
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let token: string;
  let sns: string[];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mowerline-groups-e2e-'));

  beforeAll(async () => {
    server = await startConsoleServer({ dataDir });
    server.config.publicUrl = server.url;
    browser = await launchBrowser();
    token = await server.login();
    const model = await seedModel(server, 'MLG7');
    ({ sns } = await seedDevices(server, model.id, 8, 'E2EGRP'));
    // The list shows devices with a state row (as after a first connection).
    await server.ctx.db.insert(deviceState).values(sns.map((sn) => ({ sn, firmware: '1.0.0' })));
    await releasedFirmware(server, token, model.id, '2.0.0');
  }, 120_000);

  afterAll(async () => {
    await browser?.cleanup();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  for (const [i, f] of flows.entries()) {
    it(`${f.locale}: tags three mowers, groups them by the tag, and rolls firmware out to the group`, async () => {
      const { page, context, errors } = await openSignedIn(browser, server, '/device/list', { locale: f.locale, theme: f.theme });
      try {
        // Tag in bulk: three ticked rows.
        const mine = sns.slice(i * 3, i * 3 + 3);
        for (const sn of mine) await row(page, sn).locator('.arco-checkbox').click();
        await page.getByRole('button', { name: f.tagButton }).click();
        const modal = page.locator('.arco-modal:visible');
        await modal.locator('input[maxlength="63"]').fill('ring');
        await modal.locator('input[maxlength="128"]').fill(f.ring);
        await modal.locator('.arco-btn-primary').click();
        await toast(page, f.done);
        for (const sn of mine) await row(page, sn).filter({ hasText: `ring=${f.ring}` }).waitFor();

        // A dynamic group on the tag.
        await page.goto(`${server.url}/#/device/device-group`);
        await page.getByRole('button', { name: f.newGroup }).click();
        const form = page.locator('.arco-modal:visible');
        await form.locator('.arco-form-item').first().locator('input').fill(f.group);
        const condition = form.getByTestId('tag-conditions');
        await condition.locator('input[maxlength="63"]').fill('ring');
        await condition.locator('input[maxlength="128"]').fill(f.ring);
        expect(await untranslatedKeys(page)).toEqual([]);
        await form.locator('.arco-btn-primary').click();
        const groupRow = row(page, f.group);
        await groupRow.waitFor();
        expect(await groupRow.innerText()).toMatch(/\b3\b/);
        expect(await seriousViolations(page)).toEqual([]);
        await page.screenshot({ path: `/tmp/groups-${f.locale}.png` });
        const groups = await server.api<{ list: DeviceGroup[] }>('GET', '/api/admin/device-group?pageSize=100', { token });
        const group = groups.body.data.list.find((g) => g.name === f.group)!;
        expect(group).toMatchObject({ kind: 'dynamic', memberCount: 3, filter: { tags: [{ key: 'ring', op: 'eq', value: f.ring }] } });

        // A campaign on the group.
        await page.goto(`${server.url}/#/product/firmware`);
        await page.locator('.arco-tabs-header-title').filter({ hasText: f.campaigns }).click();
        await page.getByTestId('ota-campaign-new').click();
        const c = page.locator('.arco-modal:visible');
        await c.getByTestId('ota-campaign-name').fill(f.campaign);
        await c.locator('.arco-form-item').nth(1).locator('.arco-select').click();
        await page.locator('.arco-select-popup:visible .arco-select-option').filter({ hasText: 'MLG7 2.0.0' }).click();
        await c.locator('.arco-radio-button, .arco-radio').filter({ hasText: f.groupsTarget }).first().click();
        await c.getByTestId('ota-campaign-groups').click();
        await page.locator('.arco-select-popup:visible .arco-select-option').filter({ hasText: f.group }).click();
        await c.locator('.arco-modal-title').click();
        await c.getByTestId('ota-campaign-preview').filter({ hasText: '3' }).waitFor();
        expect(await untranslatedKeys(page)).toEqual([]);
        await c.locator('.arco-btn-primary').click();
        await page.getByTestId('ota-campaign-detail').waitFor();
        const campaigns = await server.api<{ list: Campaign[] }>('GET', '/api/admin/ota/campaign?pageSize=100', { token });
        const made = campaigns.body.data.list.find((x) => x.name === f.campaign)!;
        expect(made).toMatchObject({ total: 3, target: { type: 'groups', groupIds: [group.id] } });
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);
  }
});
