import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CityDistribution, CountryDistribution, EndUser, EndUserPage } from '@mowerline/contract';
import type { TestServer } from '../../server/test/harness.ts';
import { connectDevice, createModel, waitFor, type TestDevice } from '../../server/test/devices/fixtures.ts';
import { appUserId, launchBrowser, startConsoleServer } from './harness.ts';
import { confirmPopup, openSignedIn, row, SETTLE, toast, untranslatedKeys, type Opened } from './pages.helpers.ts';

const PASSWORD = 'Mow3r#Garden8';
const BERLIN = { lat: 52.52, lng: 13.405, heading: 0 };
const SHANGHAI = { lat: 31.2304, lng: 121.4737, heading: 0 };

/** A body row of the table `scope` is (the test id sits on the table itself, so `row()` does not reach it). */
const tableRow = (scope: Locator, text: string) => scope.locator('tbody tr.arco-table-tr').filter({ hasText: text });

/** SCREENSHOT_DIR=/tmp/x keeps a screenshot for a human look. */
async function shot(page: Page, name: string): Promise<void> {
  if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/${name}.png`, fullPage: true });
}

interface AppUser {
  id: number;
  email: string;
  token?: string;
}

/**
 * The three /operation pages against a real server, with app users made the way the app makes
 * them: sign-up through the app API, confirmed by staff, then bound to a real (MQTT) mower with
 * the pairing code issued with its SN.
 */
describe('app users, user distribution and user log against the real server', () => {
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let admin: string;
  const mowers: TestDevice[] = [];
  let ann: AppUser; // Berlin, owns a mower in Berlin, shares it with Bo
  let bo: AppUser; // Shanghai, owns a mower in Shanghai
  let cleo: AppUser; // Paris, never verified
  let dan: AppUser; // Hamburg, no mower

  const register = async (email: string, name: string, country: string, city: string, locale: 'zh-CN' | 'en-US' = 'en-US'): Promise<AppUser> => {
    const res = await server.api('POST', '/api/app/v1/user/register', {
      body: { email, password: PASSWORD, name, country, city, locale, timeZone: 'Europe/Berlin' },
    });
    if (res.body.code !== 0) throw new Error(`register ${email}: ${JSON.stringify(res.body)}`);
    return { id: await appUserId(server, email), email };
  };
  const confirmAndSignIn = async (user: AppUser): Promise<AppUser> => {
    const confirmed = await server.api('POST', `/api/admin/end-user/${user.id}/confirm`, { token: admin });
    if (confirmed.body.code !== 0) throw new Error(`confirm ${user.email}: ${JSON.stringify(confirmed.body)}`);
    const login = await server.api<{ access_token: string }>('POST', '/api/app/v1/user/login', { body: { email: user.email, password: PASSWORD } });
    if (login.body.code !== 0) throw new Error(`login ${user.email}: ${JSON.stringify(login.body)}`);
    return { ...user, token: login.body.data.access_token };
  };
  const mowerAt = async (modelId: number, sn: string, position: typeof BERLIN) => {
    const res = await server.api<{ secret: string; pairingCode: string }>('POST', '/api/admin/product/sn', { token: admin, body: { sn, modelId } });
    if (res.body.code !== 0) throw new Error(JSON.stringify(res.body));
    const device = await connectDevice(server, sn, res.body.data.secret);
    await device.telemetry({ state: 'mowing', activity: 'mowing', battery: 64, position });
    mowers.push(device);
    return res.body.data.pairingCode;
  };
  const appCall = async (user: AppUser, path: string, body: unknown) => {
    const res = await server.api('POST', `/api/app/v1${path}`, { token: user.token, body });
    if (res.body.code !== 0) throw new Error(`${path}: ${JSON.stringify(res.body)}`);
  };
  const endUser = async (id: number) => (await server.api<EndUser>('GET', `/api/admin/end-user/${id}`, { token: admin })).body.data;

  beforeAll(async () => {
    server = await startConsoleServer({ telemetryFlushMs: 50 });
    browser = await launchBrowser();
    admin = await server.login();
    const modelId = await createModel(server, admin, 'MLU1');
    const berlinCode = await mowerAt(modelId, 'E2E-USR-0001', BERLIN);
    const shanghaiCode = await mowerAt(modelId, 'E2E-USR-0002', SHANGHAI);

    ann = await confirmAndSignIn(await register('ann.berlin@example.com', 'Ann Becker', 'DE', 'Berlin'));
    bo = await confirmAndSignIn(await register('bo.shanghai@example.com', 'Bo Wang', 'CN', 'Shanghai', 'zh-CN'));
    dan = await confirmAndSignIn(await register('dan.hamburg@example.com', 'Dan Fischer', 'DE', 'Hamburg'));
    cleo = await register('cleo.paris@example.com', 'Cleo Martin', 'FR', 'Paris');
    await appCall(ann, '/devices/bind', { sn: 'E2E-USR-0001', pairingCode: berlinCode });
    await appCall(bo, '/devices/bind', { sn: 'E2E-USR-0002', pairingCode: shanghaiCode });
    await appCall(ann, '/devices/E2E-USR-0001/share', { email: bo.email });
    // A failed sign-in, so the user log has a failure to filter for.
    await server.api('POST', '/api/app/v1/user/login', { body: { email: ann.email, password: 'Wrong#Password1' } });
    // The mowers' positions are in the latest state before the device basis is counted.
    await waitFor(async () => {
      const res = await server.api<CountryDistribution>('GET', '/api/admin/statistics/user-by-country?basis=device', { token: admin });
      return res.body.data.list.length === 2;
    }, 20_000, 'device-basis distribution');
  });

  afterAll(async () => {
    for (const m of mowers) if (m.client.connected) await m.end();
    await browser?.cleanup();
    await server?.close();
  });

  describe('en-US, dark', () => {
    let session: Opened;
    beforeAll(async () => {
      session = await openSignedIn(browser, server, '/operation/user', { locale: 'en-US', theme: 'dark' });
    });
    afterAll(async () => {
      await session?.context.close();
    });

    it('lists the app users, filters on the server and exports the filtered list as CSV', async () => {
      const { page } = session;
      expect(await page.evaluate(() => document.body.getAttribute('arco-theme'))).toBe('dark');
      await row(page, ann.email).waitFor();
      expect(await row(page, ann.email).innerText()).toMatch(/Ann Becker[\s\S]*Active[\s\S]*Germany[\s\S]*Berlin[\s\S]*1/);
      expect(await row(page, cleo.email).innerText()).toMatch(/Unverified[\s\S]*France/);
      await expect.poll(() => page.locator('.arco-pagination-total-text:visible').innerText(), SETTLE).toMatch(/4 users/);

      await page.locator('.device-filters:visible').getByLabel('Keyword', { exact: true }).fill('dan');
      await page.getByRole('button', { name: 'Search' }).click();
      await row(page, ann.email).waitFor({ state: 'detached' });
      expect(await row(page, dan.email).count()).toBe(1);

      await page.getByRole('button', { name: 'Reset' }).click();
      const hasDevice = page.locator('.device-filters .arco-form-item').filter({ hasText: 'Mowers' }).locator('.arco-select');
      await hasDevice.click();
      await page.locator('.arco-select-popup:visible .arco-select-option').filter({ hasText: 'Has no mower' }).click();
      await page.getByRole('button', { name: 'Search' }).click();
      await row(page, ann.email).waitFor({ state: 'detached' });
      expect(await row(page, '@example.com').count()).toBe(2); // Dan and Cleo

      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export CSV' }).click();
      const csv = await readFile((await (await download).path())!, 'utf8');
      expect(csv).toContain(dan.email);
      expect(csv).toContain(cleo.email);
      expect(csv).not.toContain(ann.email);
      await page.getByRole('button', { name: 'Reset' }).click();
      await row(page, ann.email).waitFor();
    });

    it('shows a user in the drawer: profile, mowers with online state and a link to them, recent activity', async () => {
      const { page } = session;
      await page.getByRole('button', { name: `Details of ${ann.email}` }).click();
      const drawer = page.locator('[data-testid=end-user-detail]');
      await drawer.waitFor();
      expect(await drawer.innerText()).toMatch(/Ann Becker[\s\S]*Germany \(DE\)[\s\S]*Berlin/);
      const device = drawer.locator('[data-testid=end-user-devices] tbody tr').filter({ hasText: 'E2E-USR-0001' });
      expect(await device.innerText()).toMatch(/Owner[\s\S]*Online[\s\S]*Mowing[\s\S]*Shared with: bo\.shanghai@example\.com/);
      const activity = drawer.locator('[data-testid=end-user-activity]');
      await activity.locator('[data-action=bind]').waitFor();
      expect(await activity.locator('[data-action=share]').count()).toBe(1);
      await shot(page, 'user-drawer.en-US.dark');
      expect(await activity.locator('[data-action=login]').count()).toBeGreaterThanOrEqual(1);

      await page.getByRole('link', { name: 'Open mower E2E-USR-0001 in the device list' }).click();
      await page.waitForURL(/#\/device\/list\?sn=E2E-USR-0001/);
      await page.locator('[data-testid=device-detail]').waitFor();
      await page.keyboard.press('Escape');
      await page.goto(`${server.url}/#/operation/user`);
    });

    it('confirms an unverified account, disables and enables with a reason, mails a reset, each after a confirmation', async () => {
      const { page } = session;
      await row(page, cleo.email).getByRole('button', { name: `Details of ${cleo.email}` }).click();
      await page.locator('[data-testid=end-user-detail]', { hasText: cleo.email }).waitFor();
      await page.getByTestId('end-user-confirm').click();
      await page.locator('.arco-popconfirm:visible').getByText(`Confirm the account ${cleo.email}?`).waitFor();
      await confirmPopup(page);
      await toast(page, `The account ${cleo.email} is confirmed`);
      await expect.poll(async () => (await endUser(cleo.id)).status, SETTLE).toBe('active');
      await page.keyboard.press('Escape');

      await row(page, dan.email).getByRole('button', { name: `Details of ${dan.email}` }).click();
      await page.locator('[data-testid=end-user-detail]', { hasText: dan.email }).waitFor();
      await page.getByTestId('end-user-disable').click();
      const modal = page.locator('.arco-modal:visible');
      await modal.getByRole('button', { name: 'Disable' }).click();
      await modal.getByText('Give a reason').waitFor();
      expect((await endUser(dan.id)).status).toBe('active');
      await modal.getByLabel('Reason').fill('Chargeback under review');
      await modal.getByRole('button', { name: 'Disable' }).click();
      await toast(page, `${dan.email} is disabled and signed out`);
      expect(await endUser(dan.id)).toMatchObject({ status: 'disabled', disabledReason: 'Chargeback under review' });
      // Disabling ends the app session at once.
      expect((await server.api('GET', '/api/app/v1/user/profile', { token: dan.token })).status).toBe(401);
      await page.locator('[data-testid=end-user-detail]').getByText('Chargeback under review').waitFor();
      await page.getByTestId('end-user-enable').click();
      await page.locator('.arco-modal:visible').getByRole('button', { name: 'Enable' }).click();
      await toast(page, `${dan.email} is enabled again`);
      expect((await endUser(dan.id)).status).toBe('active');
      await page.keyboard.press('Escape');

      await row(page, ann.email).getByRole('button', { name: `Details of ${ann.email}` }).click();
      await page.locator('[data-testid=end-user-detail]', { hasText: ann.email }).waitFor();
      await page.getByTestId('end-user-reset').click();
      await confirmPopup(page);
      await toast(page, `A password-reset code was mailed to ${ann.email}`);
      const mails = await server.api<{ list: Array<{ template: string }> }>('GET', `/api/admin/system/email-log?recipient=${ann.email}`, { token: admin });
      expect(mails.body.data.list.map((m) => m.template)).toContain('app-password-reset');
      await page.keyboard.press('Escape');

      const audit = await server.api<{ list: Array<{ action: string }> }>('GET', '/api/admin/system/log?action=end-user', { token: admin });
      expect(audit.body.data.list.map((r) => r.action)).toEqual(
        expect.arrayContaining(['end-user.confirm', 'end-user.disable', 'end-user.enable', 'end-user.password-reset', 'end-user.export']),
      );
    });

    it('user distribution: choropleth with legend, ranked bars and countries; a country opens its cities; both bases', async () => {
      const { page } = session;
      await page.goto(`${server.url}/#/operation/user-distribution`);
      const table = page.locator('[data-testid=user-dist-country-table]:visible');
      await table.locator('[data-country=DE]').waitFor();
      expect(await tableRow(table, 'Germany').innerText()).toMatch(/Germany[\s\S]*2[\s\S]*%/);
      expect(await tableRow(table, 'China').count()).toBe(1);
      await page.locator('[data-testid=user-dist-country-chart]:visible canvas').waitFor();
      await page.locator('[data-testid=user-dist-map][data-ready=true]').waitFor({ timeout: 30_000 });
      expect(await page.getByRole('region', { name: /World map/ }).count()).toBe(1);
      expect(await page.locator('[data-testid=user-dist-legend]').innerText()).toMatch(/Users[\s\S]*1[\s\S]*2/);

      await table.locator('[data-country=DE]').click();
      await page.getByText('Cities in Germany').waitFor();
      const cities = page.locator('[data-testid=user-dist-city-table]:visible');
      await tableRow(cities, 'Hamburg').waitFor();
      expect(await tableRow(cities, 'Berlin').count()).toBe(1);
      expect(await tableRow(cities, 'Shanghai').count()).toBe(0);

      await shot(page, 'user-distribution.en-US.dark');
      await page.getByText('Mower location', { exact: true }).click();
      await page.locator('[data-testid=user-dist-total]').getByText('2 users with a located mower').waitFor();
      await expect.poll(async () => (await table.locator('tbody tr').allInnerTexts()).join('|'), SETTLE).toMatch(/China[\s\S]*\|[\s\S]*Germany|Germany[\s\S]*\|[\s\S]*China/);
      // Ann's mower is in Berlin: on the device basis Germany has one city, the place nearest to it.
      const deCities = await server.api<CityDistribution>('GET', '/api/admin/statistics/user-by-city?basis=device&country=DE', { token: admin });
      expect(deCities.body.data.list).toHaveLength(1);
      const berlinPlace = deCities.body.data.list[0]!.city;
      await expect.poll(async () => (await cities.locator('tbody tr').allInnerTexts()).map((text) => text.includes(berlinPlace)), SETTLE).toEqual([true]);
      await page.getByRole('button', { name: 'All countries' }).click();
      await expect.poll(() => cities.locator('tbody tr').count(), SETTLE).toBe(2);
    });

    it('user log: filters by user, SN, action and result, and exports CSV', async () => {
      const { page } = session;
      await page.goto(`${server.url}/#/operation/user-log`);
      const table = page.locator('[data-testid=user-log-table]:visible');
      await table.locator('[data-action=register]').first().waitFor();

      await page.locator('.device-filters:visible').getByLabel('User', { exact: true }).fill(ann.email);
      await page.getByRole('button', { name: 'Search' }).click();
      await expect.poll(async () => (await table.locator('tbody tr').allInnerTexts()).every((text) => text.includes(ann.email)), SETTLE).toBe(true);
      expect(await table.locator('tbody [data-action=register]').count()).toBe(1);
      const result = page.locator('.device-filters .arco-form-item').filter({ hasText: 'Result' }).locator('.arco-select');
      await result.click();
      await page.locator('.arco-select-popup:visible .arco-select-option').filter({ hasText: 'Failure' }).click();
      await page.getByRole('button', { name: 'Search' }).click();
      await expect.poll(() => table.locator('tbody [data-result]').count(), SETTLE).toBe(1);
      expect(await table.locator('tbody tr').first().innerText()).toMatch(/Sign in[\s\S]*Failure/);

      await page.getByRole('button', { name: 'Reset' }).click();
      await page.locator('.device-filters:visible').getByLabel('SN', { exact: true }).fill('e2e-usr-0002');
      await page.getByRole('button', { name: 'Search' }).click();
      await expect.poll(async () => (await table.locator('tbody [data-action]').evaluateAll((els) => els.map((e) => e.getAttribute('data-action')))).sort(), SETTLE).toEqual(['bind']);
      expect(await table.locator('tbody tr').first().innerText()).toContain(bo.email);

      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export CSV' }).click();
      const csv = await readFile((await (await download).path())!, 'utf8');
      expect(csv).toContain('E2E-USR-0002');
      expect(csv).not.toContain('E2E-USR-0001');
      await shot(page, 'user-log.en-US.dark');
      expect(await untranslatedKeys(page)).toEqual([]);
      expect(session.errors).toEqual([]);
    });
  });

  it('zh-CN, light: the three pages in Chinese with the users, their mowers and their activity', async () => {
    const { page, errors, context } = await openSignedIn(browser, server, '/operation/user', { locale: 'zh-CN', theme: 'light' });
    try {
      expect(await page.evaluate(() => document.body.getAttribute('arco-theme'))).toBeNull();
      await row(page, bo.email).waitFor();
      expect(await row(page, bo.email).innerText()).toMatch(/Bo Wang[\s\S]*正常[\s\S]*中国[\s\S]*Shanghai/);
      await expect.poll(() => page.locator('.arco-pagination-total-text:visible').innerText(), SETTLE).toMatch(/共 4 位用户/);
      await shot(page, 'users.zh-CN.light');
      await row(page, bo.email).getByRole('button', { name: `${bo.email} 的详情` }).click();
      const drawer = page.locator('[data-testid=end-user-detail]');
      await drawer.waitFor();
      // Bo owns the Shanghai mower and has Ann's shared with him.
      expect(await drawer.locator('[data-testid=end-user-devices] tbody tr').filter({ hasText: 'E2E-USR-0001' }).innerText()).toMatch(/共享[\s\S]*主人: ann\.berlin@example\.com/);
      expect(await drawer.locator('[data-testid=end-user-devices] tbody tr').filter({ hasText: 'E2E-USR-0002' }).innerText()).toMatch(/主人[\s\S]*在线/);
      await drawer.getByRole('link', { name: '在用户日志中查看全部' }).click();
      await page.waitForURL(new RegExp(`#/operation/user-log\\?userId=${bo.id}`));
      const log = page.locator('[data-testid=user-log-table]:visible');
      await log.locator('[data-action=bind]').waitFor();
      expect(await log.locator('tbody tr').filter({ hasText: '绑定割草机' }).count()).toBe(1);
      expect(await log.locator('tbody tr').filter({ hasText: ann.email }).count()).toBe(0);

      await page.goto(`${server.url}/#/operation/user-distribution`);
      const countries = page.locator('[data-testid=user-dist-country-table]:visible');
      await countries.locator('[data-country=CN]').waitFor();
      expect(await countries.locator('[data-country=DE]').innerText()).toContain('德国');
      await page.getByText('居住地').first().waitFor();
      await countries.locator('[data-country=CN]').click();
      await page.getByText('中国 的城市').waitFor();
      await tableRow(page.locator('[data-testid=user-dist-city-table]:visible'), 'Shanghai').waitFor();
      await page.locator('[data-testid=user-dist-map][data-ready=true]').waitFor({ timeout: 30_000 });
      await shot(page, 'user-distribution.zh-CN.light');
      expect(await untranslatedKeys(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('answers the list through the endpoint the page uses (a page of the real data, no fixtures)', async () => {
    const res = await server.api<EndUserPage>('GET', '/api/admin/end-user?pageSize=10', { token: admin });
    expect(res.body.data.list.map((u) => u.email).sort()).toEqual([ann.email, bo.email, cleo.email, dan.email].sort());
  });
});
