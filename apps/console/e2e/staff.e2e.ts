import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestServer } from '../../server/test/harness.ts';
import { ADMIN, launchBrowser, startConsoleServer } from './harness.ts';
import { choose, confirmPopup, createStaff, openSignedIn, row, staffNamed, takeExpectedErrors, toast, SETTLE, type Opened } from './pages.helpers.ts';

const OPERATOR = { username: 'olivia', password: 'Mower#Field42' };

describe('staff page (system-user) against the real server', () => {
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let admin: string;
  let session: Opened;

  beforeAll(async () => {
    server = await startConsoleServer();
    browser = await launchBrowser();
    admin = await server.login();
    await createStaff(server, admin, { username: 'alice', name: 'Alice Chen', email: 'alice@example.com', role: 'user', password: 'Gr4ss#Cutter' });
    await createStaff(server, admin, { username: 'bruno', name: 'Bruno Diaz', email: 'bruno@example.com', role: 'user', password: 'Bl4de#Runner' });
    await createStaff(server, admin, { username: OPERATOR.username, name: 'Olivia Park', email: 'olivia@example.com', role: 'user', password: OPERATOR.password });
    const request = await server.api('POST', '/api/admin/user/register', {
      body: { username: 'carol', name: 'Carol Wu', email: 'carol@example.com', password: 'Hedge#Trim99', reason: 'Joining the support team' },
    });
    expect(request.body.code).toBe(0);
    session = await openSignedIn(browser, server, '/system/system-user');
  });

  afterAll(async () => {
    await session?.context.close();
    await browser?.cleanup();
    await server?.close();
  });

  it('lists staff with server paging, searches by keyword and filters by role', async () => {
    const { page } = session;
    await row(page, 'alice@example.com').waitFor();
    expect(await row(page, 'admin').count()).toBeGreaterThan(0);
    await expect.poll(() => page.locator('.arco-pagination-total-text').innerText(), SETTLE).toMatch(/5/);

    await page.getByPlaceholder('Username, name or e-mail').fill('bruno');
    await page.getByPlaceholder('Username, name or e-mail').press('Enter');
    await row(page, 'alice@example.com').waitFor({ state: 'detached' });
    expect(await row(page, 'bruno@example.com').count()).toBe(1);

    await page.getByRole('button', { name: 'Reset', exact: true }).click();
    await choose(page, 'All roles', 'Administrator');
    await row(page, 'alice@example.com').waitFor({ state: 'detached' });
    expect(await row(page, 'Operator').count()).toBe(0);
    await page.getByRole('button', { name: 'Reset', exact: true }).click();
    await row(page, 'alice@example.com').waitFor();
  });

  it('the mailed ?status=pending link shows the requests, and approving one activates it', async () => {
    const { page } = session;
    await page.goto(`${server.url}/#/system/system-user?status=pending`);
    await page.locator('.arco-select', { hasText: 'Pending approval' }).waitFor();
    await expect.poll(() => row(page, '@example.com').count(), SETTLE).toBe(1);
    await row(page, 'carol@example.com').getByRole('button', { name: 'Approve' }).click();
    await confirmPopup(page);
    await toast(page, 'The account of Carol Wu was approved');
    expect((await staffNamed(server, admin, 'carol'))?.status).toBe('active');
    // Approval mails the applicant (recorded even without SMTP).
    const mails = await server.api<{ list: Array<{ template: string }> }>('GET', '/api/admin/system/email-log?recipient=carol@example.com', { token: admin });
    expect(mails.body.data.list.map((m) => m.template)).toContain('account-approved');
  });

  it('adds a member without a password (invitation link handed over, mail is off) and edits them', async () => {
    const { page } = session;
    await page.goto(`${server.url}/#/system/system-user`);
    await page.getByRole('button', { name: 'Add staff' }).click();
    const modal = page.locator('.arco-modal:visible');
    await modal.getByText('an invitation link is issued').waitFor();
    await modal.getByLabel('Username').fill('dmitri');
    await modal.getByLabel(/^\W*Name$/).fill('Dmitri Ivanov');
    await modal.getByLabel('E-mail').fill('dmitri@example.com');
    await modal.getByRole('button', { name: 'Add' }).click();
    // No SMTP_URL here: the console says so and hands the one-time link over instead.
    await toast(page, 'Dmitri Ivanov was added, but no invitation was mailed');
    await closeOneTimeLink(page, 'Invitation link for Dmitri Ivanov');
    const created = await staffNamed(server, admin, 'dmitri');
    expect(created).toMatchObject({ name: 'Dmitri Ivanov', role: 'user', status: 'active' });
    const mails = await server.api<{ list: Array<{ template: string; status: string }> }>('GET', '/api/admin/system/email-log?recipient=dmitri@example.com', { token: admin });
    expect(mails.body.data.list[0]).toMatchObject({ template: 'staff-invite', status: 'not_sent' });

    await row(page, 'dmitri@example.com').getByRole('button', { name: 'Edit' }).click();
    await modal.getByLabel(/^\W*Name$/).fill('Dmitri I. Ivanov');
    await modal.getByLabel('Phone').fill('+49 30 1234567');
    await choose(page, 'Operator', 'Administrator', modal);
    await modal.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Changes to Dmitri I. Ivanov saved');
    expect(await staffNamed(server, admin, 'dmitri')).toMatchObject({ name: 'Dmitri I. Ivanov', role: 'admin' });
  });

  it('a weak initial password is caught live by the policy before it reaches the server', async () => {
    const { page } = session;
    await page.getByRole('button', { name: 'Add staff' }).click();
    const modal = page.locator('.arco-modal:visible');
    await modal.getByLabel('Username').fill('eve');
    await modal.getByLabel('Initial password').fill('short');
    await modal.locator('[data-testid=password-hint][data-valid=false]').waitFor();
    await modal.getByLabel('Initial password').fill('Long#Enough1');
    await modal.locator('[data-testid=password-hint][data-valid=true]').waitFor();
    await modal.getByRole('button', { name: 'Cancel' }).click();
    expect(await staffNamed(server, admin, 'eve')).toBeUndefined();
  });

  it('disables a member only after confirmation', async () => {
    const { page } = session;
    await row(page, 'bruno@example.com').getByRole('button', { name: 'Disable' }).click();
    await page.locator('.arco-popconfirm:visible').getByRole('button', { name: 'Cancel' }).click();
    expect((await staffNamed(server, admin, 'bruno'))?.status).toBe('active');

    await row(page, 'bruno@example.com').getByRole('button', { name: 'Disable' }).click();
    await confirmPopup(page);
    await toast(page, 'Bruno Diaz was disabled');
    expect((await staffNamed(server, admin, 'bruno'))?.status).toBe('disabled');
    await row(page, 'bruno@example.com').getByText('Disabled').waitFor();
    const refused = await server.api('POST', '/api/admin/user/login', { body: { username: 'bruno', password: 'Bl4de#Runner' } });
    expect(refused.body.code).toBe(41006);
  });

  it('resets a password by setting a new one, or by mailing a reset link', async () => {
    const { page } = session;
    const before = await server.login('alice', 'Gr4ss#Cutter');
    await row(page, 'alice@example.com').getByRole('button', { name: 'Reset password' }).click();
    const modal = page.locator('.arco-modal:visible');
    await modal.getByText('Set a new password now').click();
    await modal.getByLabel('New password', { exact: true }).fill('Fresh#Lawn2026');
    await modal.getByRole('button', { name: 'Reset password' }).click();
    await toast(page, 'The new password of Alice Chen is set');
    expect(await server.login('alice', 'Fresh#Lawn2026')).toBeTruthy();
    // Her old session ended with the reset.
    expect((await server.api('GET', '/api/admin/user/info', { token: before })).status).toBe(401);

    await row(page, 'alice@example.com').getByRole('button', { name: 'Reset password' }).click();
    await modal.getByText('Mail a reset link to alice@example.com').waitFor();
    await modal.getByRole('button', { name: 'Reset password' }).click();
    await toast(page, 'A reset link was issued for Alice Chen, but it was not mailed');
    await closeOneTimeLink(page, 'Password reset link for Alice Chen');
    const mails = await server.api<{ list: Array<{ template: string; status: string }> }>('GET', '/api/admin/system/email-log?recipient=alice@example.com', { token: admin });
    expect(mails.body.data.list[0]).toMatchObject({ template: 'password-reset', status: 'not_sent' });
  });

  it('shows the server refusal (last admin) through the error policy and changes nothing', async () => {
    const { page } = session;
    // Two admins now (dmitri was promoted); disable him so the built-in admin is the last one.
    await server.api('PUT', '/api/admin/user', { token: admin, body: { id: (await staffNamed(server, admin, 'dmitri'))!.id, status: 'disabled' } });
    await page.reload();
    const adminRow = page.locator('tr.arco-table-tr', { has: page.locator(`[data-username="${ADMIN.username}"]`) });
    await adminRow.getByRole('button', { name: 'Edit' }).click();
    const modal = page.locator('.arco-modal:visible');
    await choose(page, 'Administrator', 'Operator', modal);
    await modal.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'The last active administrator cannot be disabled or demoted');
    expect((await staffNamed(server, admin, ADMIN.username))?.role).toBe('admin');
    expect(takeExpectedErrors(session.errors, /status of 400 .*\/api\/admin\/user$/)).toBe(1);
    await modal.getByRole('button', { name: 'Cancel' }).click();
  });

  it('shows the roles with descriptions and member counts', async () => {
    const { page } = session;
    await page.getByRole('tab', { name: 'Roles' }).click();
    const operators = row(page.locator('.arco-tabs-content-item-active'), 'Operator');
    await operators.waitFor();
    expect(await operators.innerText()).toContain('Works with devices');
  });

  it('role user sees no admin areas or actions, and the server refuses them (403)', async () => {
    const operator = await openSignedIn(browser, server, '/system/system-user', OPERATOR);
    const { page } = operator;
    // The guard sends a role without access elsewhere; nothing of the staff page shows.
    await page.locator('[data-testid=greeting], .arco-result').first().waitFor();
    expect(page.url()).not.toContain('system-user');
    expect(await page.getByRole('button', { name: 'Add staff' }).count()).toBe(0);
    expect(await page.locator('[data-route=system-user]').count()).toBe(0);
    await operator.context.close();

    const token = await server.login(OPERATOR.username, OPERATOR.password);
    const carol = (await staffNamed(server, admin, 'carol'))!;
    const attempts = [
      await server.api('GET', '/api/admin/user', { token }),
      await server.api('POST', '/api/admin/user', { token, body: { username: 'mallory', name: 'M', email: 'm@example.com', role: 'admin' } }),
      await server.api('PUT', '/api/admin/user', { token, body: { id: carol.id, status: 'disabled' } }),
      await server.api('PUT', '/api/admin/user', { token, body: { id: carol.id, sendResetLink: true } }),
      await server.api('GET', '/api/admin/user/role', { token }),
      await server.api('GET', '/api/admin/system/log', { token }),
      await server.api('GET', '/api/admin/system/email-log', { token }),
    ];
    expect(attempts.map((res) => res.status)).toEqual(attempts.map(() => 403));
    expect((await staffNamed(server, admin, 'carol'))?.status).toBe('active');
    expect(await staffNamed(server, admin, 'mallory')).toBeUndefined();
  });

  it('raised no console errors', () => {
    expect(session.errors).toEqual([]);
  });
});

/** The one-time link dialog shown when mail is off: a link to copy, then Done. */
async function closeOneTimeLink(page: Page, title: string): Promise<void> {
  const dialog = page.locator('.arco-modal:visible', { hasText: title });
  await dialog.getByText('Mail is off on this server').waitFor();
  expect(await dialog.locator('[data-testid=staff-one-time-link-value]').inputValue()).toMatch(/^https?:\/\/\S+$/);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await dialog.waitFor({ state: 'detached' });
}
