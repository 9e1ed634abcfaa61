import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../server/test/harness.ts';
import { launchBrowser, startConsoleServer } from './harness.ts';
import { createStaff, openSignedIn, takeExpectedErrors, toast, SETTLE, type Opened } from './pages.helpers.ts';

const GRACE = { username: 'grace', password: 'Sprinkl3r#On' };

interface UnreadCount {
  message: number;
  notice: number;
  todo: number;
}

describe('workplace, messages and user center against the real server', () => {
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let admin: string;
  const opened: Opened[] = [];
  const open = async (...args: Parameters<typeof openSignedIn> extends [unknown, unknown, ...infer R] ? R : never) => {
    const session = await openSignedIn(browser, server, ...args);
    opened.push(session);
    return session;
  };

  beforeAll(async () => {
    server = await startConsoleServer();
    browser = await launchBrowser();
    admin = await server.login();
    // Each new account notifies every admin: three unread notices for the admin.
    await createStaff(server, admin, { username: GRACE.username, name: 'Grace Lee', email: 'grace@example.com', role: 'user', password: GRACE.password });
    await createStaff(server, admin, { username: 'henry', name: 'Henry Ford', email: 'henry@example.com', role: 'user', password: 'Tract0r#Blue' });
    await createStaff(server, admin, { username: 'iris', name: 'Iris Vega', email: 'iris@example.com', role: 'user', password: 'Petal#Field8' });
  });

  afterAll(async () => {
    for (const session of opened) await session.context.close();
    await browser?.cleanup();
    await server?.close();
  });

  it('the admin workplace greets by name, lists unread messages and links every admin area', async () => {
    const { page, errors } = await open('/dashboard/workplace');
    await page.locator('[data-testid=greeting]', { hasText: 'admin' }).waitFor();
    await expect.poll(() => page.locator('[data-testid=unread-message]').count(), SETTLE).toBe(3);
    expect(await page.locator('[data-testid=unread-message]').first().innerText()).toContain('New staff account');
    for (const name of ['system-user', 'system-log', 'email-log', 'user-center', 'user-messages']) {
      expect(await page.locator(`[data-route=${name}]`).count(), name).toBe(1);
    }
    await page.locator('[data-route=system-log]').click();
    await page.waitForURL(/#\/system\/system-log/);
    expect(errors).toEqual([]);
  });

  it('a role-user workplace links only to permitted areas', async () => {
    const { page, errors } = await open('/dashboard/workplace', GRACE);
    await page.locator('[data-testid=greeting]', { hasText: 'Grace Lee' }).waitFor();
    await page.locator('[data-route=user-center]').waitFor();
    expect(await page.locator('[data-route^=system-], [data-route=email-log]').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('the messages page marks one message read, then all of them', async () => {
    const { page, errors } = await open('/user/messages?type=notice');
    const unread = page.locator('[data-message-id][data-status="0"]');
    await expect.poll(() => unread.count(), SETTLE).toBe(3);
    await unread.first().locator('[data-testid=mark-read]').click();
    await expect.poll(() => unread.count(), SETTLE).toBe(2);
    const counts = async () => (await server.api<UnreadCount>('GET', '/api/admin/message/unread-count', { token: admin })).body.data;
    expect((await counts()).notice).toBe(2);

    await page.locator('.arco-radio-button', { hasText: 'Unread' }).click();
    await expect.poll(() => page.locator('[data-message-id]').count(), SETTLE).toBe(2);
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await toast(page, 'All marked read');
    await page.getByText('You are all caught up').waitFor();
    expect((await counts()).notice).toBe(0);
    await page.locator('.arco-radio-button', { hasText: /^All$/ }).click();
    await expect.poll(() => page.locator('[data-message-id][data-status="1"]').count(), SETTLE).toBe(3);
    expect(await page.getByRole('button', { name: 'Mark all read' }).isDisabled()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('each member chooses which device faults notify them, in their own language', async () => {
    const { page, errors } = await open('/user/messages', { ...GRACE, locale: 'zh-CN' });
    await page.getByTestId('notify-prefs-open').filter({ hasText: '故障通知' }).click();
    const modal = page.locator('.arco-modal:visible');
    const severities = modal.getByTestId('notify-prefs-severities');
    // The defaults: critical and major on.
    await expect.poll(async () => severities.locator('.arco-checkbox-checked').allInnerTexts(), SETTLE).toEqual(['严重', '重要']);
    await severities.locator('.arco-checkbox', { hasText: '重要' }).click();
    await severities.locator('.arco-checkbox', { hasText: '次要' }).click();
    await modal.getByTestId('notify-prefs-codes').locator('input').fill('blade_worn');
    await modal.getByTestId('notify-prefs-codes').locator('input').press('Enter');
    await modal.getByRole('button', { name: /确\s*定/ }).click();
    await toast(page, '通知设置已保存');
    const grace = await server.login(GRACE.username, GRACE.password);
    const saved = await server.api('GET', '/api/admin/message/preferences', { token: grace });
    expect(saved.body.data).toEqual({ severities: ['critical', 'minor'], codes: ['BLADE_WORN'] });
    expect(errors).toEqual([]);
  });

  it('the user center edits the profile (validated like the server) and the header follows', async () => {
    const { page, errors } = await open('/user/center', GRACE);
    await page.locator('[data-testid=profile-name]', { hasText: 'Grace Lee' }).waitFor();
    await page.getByLabel(/^\W*Name$/).fill('Grace M. Lee');
    await page.getByLabel('Job title').fill('Field engineer');
    await page.getByLabel('Website').fill('not a web address');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Enter a full address such as https://example.com').waitFor();
    await page.getByLabel('Website').fill('https://grace.example.com');
    await page.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Profile saved');
    await page.locator('[data-testid=profile-name]', { hasText: 'Grace M. Lee' }).waitFor();

    const token = await server.login(GRACE.username, GRACE.password);
    const info = await server.api<{ name: string; job: string; personalWebsite: string }>('GET', '/api/admin/user/info', { token });
    expect(info.body.data).toMatchObject({ name: 'Grace M. Lee', job: 'Field engineer', personalWebsite: 'https://grace.example.com' });
    expect(errors).toEqual([]);
  });

  it('the user center changes the password: live policy hint, wrong current password refused, other sessions signed out', async () => {
    const { page, errors } = await open('/user/center?tab=security', GRACE);
    const elsewhere = await server.login(GRACE.username, GRACE.password);

    await page.getByLabel('Current password').fill('Not#MyPassword1');
    await page.getByLabel('New password').fill('grace');
    await page.locator('[data-testid=password-hint][data-valid=false]').waitFor();
    await page.getByLabel('New password').fill('Mulch#Season25');
    await page.locator('[data-testid=password-hint][data-valid=true]').waitFor();
    await page.getByLabel('Confirm password').fill('Mulch#Season25');
    await page.getByRole('button', { name: 'Change password' }).click();
    await toast(page, 'The current password is wrong');
    expect(takeExpectedErrors(errors, /status of 400 .*\/api\/admin\/user\/password$/)).toBe(1);
    expect((await server.api('GET', '/api/admin/user/info', { token: elsewhere })).status).toBe(200);

    await page.getByLabel('Current password').fill(GRACE.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.locator('[data-testid=password-changed]', { hasText: 'every other session of your account has been signed out' }).waitFor();
    expect((await server.api('GET', '/api/admin/user/info', { token: elsewhere })).status).toBe(401);
    expect(await server.login(GRACE.username, 'Mulch#Season25')).toBeTruthy();

    // This browser stays signed in.
    await page.reload();
    await page.locator('[data-testid=profile-name]').waitFor();
    expect(page.url()).toContain('/user/center');
    expect(errors).toEqual([]);
  });
});
