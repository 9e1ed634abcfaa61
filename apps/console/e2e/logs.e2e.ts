import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../server/test/harness.ts';
import { launchBrowser, startConsoleServer } from './harness.ts';
import { choose, createStaff, openSignedIn, row, SETTLE, type Opened } from './pages.helpers.ts';

/** 'YYYY-MM-DD HH:mm:ss' in the browser's local time, as the range picker takes typed dates. */
function pickerText(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())} ${p(date.getHours())}:${p(date.getMinutes())}:${p(date.getSeconds())}`;
}

describe('system log and e-mail log pages against the real server', () => {
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let admin: string;
  let session: Opened;

  beforeAll(async () => {
    server = await startConsoleServer();
    browser = await launchBrowser();
    admin = await server.login();
    await createStaff(server, admin, { username: 'frank', name: 'Frank Moss', email: 'frank@example.com', role: 'user', password: 'Turf#Master77' });
    // A failed sign-in and a forgot-password request: both audited, the second mails (no SMTP here).
    await server.api('POST', '/api/admin/user/login', { body: { username: 'ghost', password: 'Wrong#Pass1' } });
    expect((await server.api('POST', '/api/admin/user/forgot-password', { body: { username: 'frank' } })).body.code).toBe(0);
    session = await openSignedIn(browser, server, '/system/system-log');
  });

  afterAll(async () => {
    await session?.context.close();
    await browser?.cleanup();
    await server?.close();
  });

  it('finds an action just done by actor and action, and expands its JSON detail', async () => {
    const { page } = session;
    await row(page, 'frank').first().waitFor();
    await page.getByPlaceholder('Actor').fill('admin');
    await page.getByPlaceholder('Actor').press('Enter');
    await choose(page, 'All actions', /^Add staff$/, page, 'Add staff');
    const created = row(page, 'frank');
    await created.waitFor();
    await expect.poll(() => page.locator('.arco-table tbody tr.arco-table-tr:visible').count(), SETTLE).toBe(1);
    expect(await created.innerText()).toMatch(/Add staff[\s\S]*Staff frank[\s\S]*Success/);

    await created.locator('.arco-table-expand-icon-cell button').click();
    const detail = page.locator('[data-testid=log-detail]');
    await detail.waitFor();
    expect(JSON.parse(await detail.innerText())).toMatchObject({ username: 'frank', email: 'frank@example.com', invited: false });
  });

  it('filters by a whole family of actions and by result', async () => {
    const { page } = session;
    await page.getByRole('button', { name: 'Reset', exact: true }).click();
    await choose(page, 'All results', 'Failure');
    const failed = row(page, 'ghost');
    await failed.waitFor();
    expect(await failed.innerText()).toMatch(/Sign in[\s\S]*Failure/);
    await expect.poll(() => row(page, 'Success').count(), SETTLE).toBe(0);

    await page.getByRole('button', { name: 'Reset', exact: true }).click();
    await choose(page, 'All actions', 'Any: Sign-in and account');
    await expect.poll(() => row(page, 'Add staff').count(), SETTLE).toBe(0);
    await row(page, 'Request password reset').waitFor();
  });

  it('filters by time range: a past range finds nothing, a range around now finds the action', async () => {
    const { page } = session;
    await page.getByRole('button', { name: 'Reset', exact: true }).click();
    const inputs = page.locator('.arco-picker-range input');
    const apply = async (from: Date, to: Date) => {
      const request = page.waitForRequest((r) => r.url().includes('/api/admin/system/log') && r.url().includes('from='));
      await inputs.nth(0).click();
      await inputs.nth(0).fill(pickerText(from));
      await inputs.nth(0).press('Enter');
      await inputs.nth(1).fill(pickerText(to));
      await inputs.nth(1).press('Enter');
      const url = new URL((await request).url());
      expect(new Date(url.searchParams.get('from')!).getTime()).toBe(Math.floor(from.getTime() / 1000) * 1000);
    };
    await apply(new Date(2020, 0, 1, 0, 0, 0), new Date(2020, 0, 2, 0, 0, 0));
    await page.locator('.arco-table tbody .arco-empty:visible').waitFor();

    await page.getByRole('button', { name: 'Reset', exact: true }).click();
    await row(page, 'frank').first().waitFor();
    const now = Date.now();
    await apply(new Date(now - 3_600_000), new Date(now + 3_600_000));
    await row(page, 'frank').first().waitFor();
  });

  it('shows the actions translated in Chinese', async () => {
    const zh = await openSignedIn(browser, server, '/system/system-log', { locale: 'zh-CN' });
    await row(zh.page, '新增员工').first().waitFor();
    await row(zh.page, '申请重置密码').first().waitFor();
    expect(await row(zh.page, '登录').count()).toBeGreaterThan(0);
    expect(zh.errors).toEqual([]);
    await zh.context.close();
  });

  it('the e-mail log shows the forgot-password mail as not sent (no SMTP) and filters it', async () => {
    const { page } = session;
    await page.goto(`${server.url}/#/system/email-log`);
    // Frank also has his invitation mail; the reset mail is recorded in the background (by design).
    const mail = row(page, 'frank@example.com').filter({ hasText: 'Password reset' });
    await mail.waitFor();
    expect(await mail.innerText()).toMatch(/Password reset[\s\S]*Not sent/);
    expect(await mail.locator('[data-status=not_sent]').count()).toBe(1);

    await page.getByPlaceholder('Recipient').fill('frank@');
    await page.getByPlaceholder('Recipient').press('Enter');
    await choose(page, 'All statuses', 'Not sent');
    await mail.waitFor();
    await choose(page, 'All templates', 'Staff invitation');
    await mail.waitFor({ state: 'detached' });
    await page.locator('.arco-table tbody .arco-empty:visible').waitFor();
  });

  it('raised no console errors', () => {
    expect(session.errors).toEqual([]);
  });
});
