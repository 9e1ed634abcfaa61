import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../server/test/harness.ts';
import { launchBrowser, startConsoleServer } from './harness.ts';
import { hashOf, open, signIn, toast } from './shell.helpers.ts';

const OPERATOR = { username: 'oscar', password: 'Lawn#Keeper55' };

describe('console shell: roles and the message box', () => {
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let admin: string;

  const createStaff = async (username: string, role: 'admin' | 'user', password?: string) => {
    const res = await server.api('POST', '/api/admin/user', {
      token: admin,
      body: { username, name: username[0]!.toUpperCase() + username.slice(1), email: `${username}@example.com`, role, ...(password ? { password } : {}) },
    });
    expect(res.body.code).toBe(0);
  };

  beforeAll(async () => {
    server = await startConsoleServer();
    browser = await launchBrowser();
    admin = await server.login();
    await createStaff(OPERATOR.username, 'user', OPERATOR.password);
  });
  afterAll(async () => {
    await browser?.cleanup();
    await server?.close();
  });

  it('hides admin-only pages from the user role, redirects them away, and the server refuses them anyway', async () => {
    const { page, context, errors } = await open(browser, server, '/system/system-user');
    await signIn(page, OPERATOR.username, OPERATOR.password);
    // The target is refused for this role: the guard sends it to the first page it may open.
    await page.waitForURL(/#\/dashboard\/workplace$/);
    await page.getByTestId('menu-dashboard').waitFor();
    expect(await page.getByTestId('menu-system').count()).toBe(0);
    expect(await page.getByTestId('menu-user').count()).toBe(1);
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-center').waitFor();
    expect(await page.getByTestId('user-switch-roles').count()).toBe(0);
    await page.keyboard.press('Escape');

    await page.goto(`${server.url}/#/system/system-log`);
    await page.waitForURL(/#\/dashboard\/workplace$/);
    expect(await page.getByTestId('tabbar-system-log').count()).toBe(0);

    const token = await page.evaluate(() => sessionStorage.getItem('token'));
    for (const path of ['/api/admin/user', '/api/admin/system/log', '/api/admin/system/email-log']) {
      const res = await server.api('GET', path, { token: token! });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe(40003);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it.each([
    { locale: 'en-US', text: 'Your role cannot open “System log”, so the console opened “Workplace” instead.' },
    { locale: 'zh-CN', text: '您的角色无权打开“系统日志”，已为您打开“工作台”。' },
  ] as const)('tells an operator why an admin-only deep link opened the workplace ($locale)', async ({ locale, text }) => {
    const { page, context, errors } = await open(browser, server, '/system/system-log', locale);
    await signIn(page, OPERATOR.username, OPERATOR.password);
    await page.waitForURL(/#\/dashboard\/workplace$/);
    await toast(page, text).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lets an administrator switch roles: what the role may see follows at once', async () => {
    const { page, context } = await open(browser, server, '/system/system-user');
    await signIn(page);
    await page.getByTestId('menu-system').waitFor();
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-switch-roles').click();
    await toast(page, 'Now viewing as Operator').waitFor();
    await page.getByTestId('menu-system').waitFor({ state: 'detached' });
    await page.waitForURL(/#\/dashboard\/workplace$/);

    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-switch-roles').click();
    await toast(page, 'Now viewing as Administrator').waitFor();
    await page.getByTestId('menu-system').waitFor();
    await context.close();
  });

  it('opens the user center and the user settings from the user menu', async () => {
    const { page, context } = await open(browser, server, '/dashboard/workplace');
    await signIn(page, OPERATOR.username, OPERATOR.password);
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-center').click();
    await page.waitForURL(/#\/user\/center$/);
    await page.getByTestId('breadcrumb').getByText('User center').waitFor();
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-settings').click();
    await page.waitForURL(/#\/user\/center\?tab=security$/);
    await page.locator('.arco-tabs-header-title-active').filter({ hasText: 'Security' }).waitFor();
    await context.close();
  });

  it('counts unread messages, reads one on click, reads all, and opens the full list', async () => {
    // Each new staff account notifies every administrator (a notice).
    await createStaff('nadia', 'user');
    await createStaff('nico', 'user');
    const unread = async () =>
      (await server.api<{ message: number; notice: number; todo: number }>('GET', '/api/admin/message/unread-count', { token: admin })).body.data;
    const before = await unread();
    expect(before.notice).toBeGreaterThanOrEqual(2);

    const { page, context, errors } = await open(browser, server, '/dashboard/workplace');
    await signIn(page);
    const total = before.message + before.notice + before.todo;
    await page.getByTestId('message-box-badge').getByText(String(total)).waitFor();
    await page.getByTestId('message-box-button').click();
    await page.getByTestId('message-box-tab-notice').getByText(`Notices (${before.notice})`).waitFor();
    await page.getByTestId('message-box-tab-notice').click();

    const item = page.locator('[data-testid=message-box-item][data-status="0"]').first();
    await item.waitFor();
    const read = page.waitForRequest((r) => r.url().endsWith('/api/admin/message/read'));
    await item.click();
    expect((await read).postDataJSON()).toEqual({ ids: [expect.any(Number)] });
    await expect.poll(async () => (await unread()).notice).toBe(before.notice - 1);
    await page.getByTestId('message-box-tab-notice').getByText(`Notices (${before.notice - 1})`).waitFor();

    await page.getByTestId('message-box-all-read').click();
    await expect.poll(async () => (await unread()).notice).toBe(0);
    await page.getByTestId('message-box-tab-notice').getByText('Notices', { exact: true }).waitFor();
    expect(await page.locator('[data-testid=message-box-item][data-status="0"]').count()).toBe(0);

    await page.getByTestId('message-box-more').click();
    await page.waitForURL(/#\/user\/messages\?type=notice$/);
    expect(hashOf(page)).toBe('/user/messages?type=notice');
    expect(errors).toEqual([]);
    await context.close();
  });
});
