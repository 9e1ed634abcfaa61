import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook as Verifier } from 'standardwebhooks';
import type { TestServer } from '../../server/test/harness.ts';
import { startReceiver } from '../../server/test/integrations/receiver.ts';
import { launchBrowser, startConsoleServer } from './harness.ts';
import { confirmPopup, openSignedIn, row, SETTLE, untranslatedKeys, type Opened } from './pages.helpers.ts';

/**
 * System → Integrations against the real server and a local webhook receiver (the server allows
 * http and private addresses for it): a key shown once that then works on the API, a webhook whose
 * test event arrives signed and shows in the delivery log with its signature headers. Both
 * languages; axe in the light and the dark theme.
 */
const texts = {
  'en-US': { apiKeys: 'API keys', webhooks: 'Webhooks', createKey: 'Create API key', createHook: 'Create webhook', noKeys: 'No API keys yet', noHooks: 'No webhooks yet', copied: 'I have copied it', test: 'Send test event', delivered: 'Delivered', revoke: 'Revoke' },
  'zh-CN': { apiKeys: 'API 密钥', webhooks: 'Webhook', createKey: '创建 API 密钥', createHook: '创建 Webhook', noKeys: '还没有 API 密钥', noHooks: '还没有 Webhook', copied: '我已复制', test: '发送测试事件', delivered: '已送达', revoke: '吊销' },
} as const;

/** Arco's own markup that axe flags and our code cannot change (see a11y.e2e.ts for each reason). */
const arcoOwn = [/#arco-tabs-\d+-tab-\d+/, /\.arco-pagination-option/, /\.arco-table-content-inner/];

async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .flatMap((v) => v.nodes.map((n) => `${v.id} at ${n.target.map(String).join(' ')}`))
    .filter((found) => !arcoOwn.some((pattern) => pattern.test(found)));
}

/** Revokes every key and deletes every webhook, so each language starts from the empty page. */
async function clearIntegrations(server: TestServer) {
  const admin = await server.login();
  const keys = await server.api<{ list: Array<{ id: number }> }>('GET', '/api/admin/api-key?pageSize=100', { token: admin });
  for (const k of keys.body.data.list) await server.api('DELETE', `/api/admin/api-key/${k.id}`, { token: admin });
  const hooks = await server.api<Array<{ id: number }>>('GET', '/api/admin/webhook', { token: admin });
  for (const h of hooks.body.data) await server.api('DELETE', `/api/admin/webhook/${h.id}`, { token: admin });
}

describe('integrations page', () => {
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    server = await startConsoleServer({ webhookAllowHttp: true, webhookAllowPrivate: true });
    browser = await launchBrowser();
    receiver = await startReceiver([200]);
  });
  afterAll(async () => {
    await browser?.cleanup();
    await server?.close();
    await receiver?.close();
  });

  for (const [locale, theme] of [
    ['en-US', 'dark'],
    ['zh-CN', 'light'],
  ] as const) {
    it(`${locale}, ${theme}: creates a key shown once, a webhook, sends a test event and sees it signed in the log`, async () => {
      const s = texts[locale];
      let opened: Opened | undefined;
      try {
        opened = await openSignedIn(browser, server, '/system/integrations', { locale, theme });
        const { page } = opened;
        // A fresh server: both tabs start empty (the demo creates no keys and no webhooks).
        await page.getByText(s.noKeys).waitFor();
        expect(await seriousViolations(page)).toEqual([]);

        await page.getByRole('button', { name: s.createKey }).click();
        const form = page.locator('[data-testid=api-key-form]');
        await form.locator('input').first().fill(`warranty-${locale}`);
        await form.locator('label[data-scope="devices:read"], [data-scope="devices:read"]').first().click();
        await page.locator('.arco-modal:visible .arco-modal-footer .arco-btn-primary').click();
        const shown = page.locator('[data-testid=api-key-once-value]');
        await shown.waitFor({ timeout: 15_000 }).catch(async (err: unknown) => {
          throw new Error(`no key shown: ${String(err)}\n${await page.locator('body').innerText()}\n${opened!.errors.join('\n')}`);
        });
        const key = await shown.inputValue();
        expect(key).toMatch(/^mwl_/);
        await page.getByRole('button', { name: s.copied }).click();
        const keyRow = row(page, `warranty-${locale}`);
        await keyRow.waitFor();
        expect(await keyRow.innerText()).toContain(key.slice(0, 12));
        // The key shown once is a working credential, and it is nowhere on the page any more.
        expect((await server.api('GET', '/api/admin/device', { token: key })).body.code).toBe(0);
        expect(await page.locator('#root').innerText()).not.toContain(key);

        await page.getByRole('tab', { name: s.webhooks }).click();
        await page.getByText(s.noHooks).waitFor();
        await page.getByRole('button', { name: s.createHook }).click();
        const hookForm = page.locator('[data-testid=webhook-form]');
        await hookForm.locator('input').first().fill(receiver.url);
        await page.locator('.arco-modal:visible .arco-modal-footer .arco-btn-primary').click();
        const secretBox = page.locator('[data-testid=webhook-secret-once-value]');
        await secretBox.waitFor();
        const secret = await secretBox.inputValue();
        expect(secret).toMatch(/^whsec_/);
        await page.getByRole('button', { name: s.copied }).click();

        const before = receiver.received.length;
        await row(page, receiver.url).getByRole('button', { name: s.test }).click();
        await expect.poll(() => receiver.received.length, SETTLE).toBe(before + 1);
        const got = receiver.received[before]!;
        expect(new Verifier(secret).verify(got.body, got.headers as Record<string, string>)).toMatchObject({ type: 'webhook.test' });

        const log = page.locator('[data-testid=delivery-log]');
        await log.locator('[data-status=succeeded]').waitFor(SETTLE);
        expect(await log.innerText()).toContain(s.delivered);
        await log.locator('.arco-table-expand-icon-cell button').first().click();
        const detail = page.locator('[data-testid=delivery-detail]');
        await detail.waitFor();
        const detailText = await detail.innerText();
        expect(detailText).toContain(`webhook-id: ${String(got.headers['webhook-id'])}`);
        expect(detailText).toContain(`webhook-signature: ${String(got.headers['webhook-signature'])}`);
        expect(await seriousViolations(page)).toEqual([]);
        expect(await untranslatedKeys(page)).toEqual([]);
        expect(await page.locator('#root').innerText()).not.toMatch(/\bintegrations\.[a-z]/i);
        await page.keyboard.press('Escape');

        // Clean up through the page: delete the webhook, revoke the key.
        await row(page, receiver.url).getByRole('button').last().click();
        await confirmPopup(page);
        await page.getByText(s.noHooks).waitFor();
        await page.getByRole('tab', { name: s.apiKeys }).click();
        await row(page, `warranty-${locale}`).getByRole('button', { name: s.revoke }).click();
        await confirmPopup(page);
        await page.getByText(s.noKeys).waitFor();
        expect((await server.api('GET', '/api/admin/device', { token: key })).status).toBe(401);
        expect(opened.errors).toEqual([]);
      } finally {
        await opened?.context.close();
        await clearIntegrations(server);
      }
    }, 240_000);
  }
});
