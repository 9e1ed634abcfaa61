import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { DeviceDetail } from '@mowerline/contract';
import type { TestServer } from '../../server/test/harness.ts';
import { pairingQrDataUrl } from '../src/product-sn/pairing-qr.ts';
import { appUserId, launchBrowser } from './harness.ts';
import { confirmPopup, openSignedIn, row, SETTLE, toast, type Opened } from './pages.helpers.ts';
import { model, startDeviceConsoleServer } from './devices.helpers.ts';

const PASSWORD = 'Mow3r#Garden8';
const SN = 'E2E-BND-0001';
const CODE = /^[0-9A-Z]{5}-[0-9A-Z]{5}$/;

interface AppUser {
  id: number;
  email: string;
  token: string;
}

/**
 * From the label to the owner: staff register an SN in the console and see its pairing code and QR
 * code once; an app user signs up through the app API, is confirmed by staff and binds with that
 * code; the console's device list and detail then show the owner and who the mower is shared with.
 */
describe('pairing code, QR label and the bound owner in the console', () => {
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let admin: string;
  let ann: AppUser;
  let bo: AppUser;
  let pairingCode = '';
  const sessions: Opened[] = [];

  const appUser = async (email: string, name: string): Promise<AppUser> => {
    const registered = await server.api('POST', '/api/app/v1/user/register', {
      body: { email, password: PASSWORD, name, country: 'DE', city: 'Berlin', locale: 'en-US', timeZone: 'Europe/Berlin' },
    });
    if (registered.body.code !== 0) throw new Error(`register ${email}: ${JSON.stringify(registered.body)}`);
    const id = await appUserId(server, email);
    const confirmed = await server.api('POST', `/api/admin/end-user/${id}/confirm`, { token: admin });
    if (confirmed.body.code !== 0) throw new Error(`confirm ${email}: ${JSON.stringify(confirmed.body)}`);
    const login = await server.api<{ access_token: string }>('POST', '/api/app/v1/user/login', { body: { email, password: PASSWORD } });
    if (login.body.code !== 0) throw new Error(`login ${email}: ${JSON.stringify(login.body)}`);
    return { id, email, token: login.body.data.access_token };
  };
  const app = async (user: AppUser, path: string, body: unknown) => {
    const res = await server.api('POST', `/api/app/v1${path}`, { token: user.token, body });
    return res.body as { code: number; msg: string };
  };
  /** The show-once dialog's pairing code, after checking its QR code encodes exactly the app's bind URI. */
  const shownPairing = async (page: Page, sn: string, qrAlt: string) => {
    const box = page.getByTestId('pairing-code');
    await box.waitFor();
    const code = await box.inputValue();
    expect(code).toMatch(CODE);
    const qr = page.getByRole('img', { name: qrAlt });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toBe(await pairingQrDataUrl(sn, code));
    return code;
  };
  const untranslated = async (page: Page) => [...(await page.locator('#root').innerText()).matchAll(/\b(?:devices|productSn)\.[A-Za-z.-]+\b/g)].map((m) => m[0]);

  beforeAll(async () => {
    server = await startDeviceConsoleServer();
    browser = await launchBrowser();
    admin = await server.login();
    await model(server, admin, 'MLB1');
    ann = await appUser('ann.binder@example.com', 'Ann Binder');
    bo = await appUser('bo.sharer@example.com', 'Bo Sharer');
  });

  afterAll(async () => {
    for (const s of sessions) await s.context.close();
    await browser?.cleanup();
    await server?.close();
  });

  it('registers an SN and shows its pairing code once, with copy buttons and a QR code of the bind URI (en-US, light)', async () => {
    const session = await openSignedIn(browser, server, '/product/sn');
    sessions.push(session);
    const { page } = session;
    await page.getByRole('button', { name: 'Register SN' }).click();
    const form = page.locator('.arco-modal').filter({ hasText: 'Register a serial number' });
    await form.locator('input').first().fill(SN);
    await form.locator('.arco-select').click();
    await page.locator('.arco-select-popup:visible .arco-select-option').filter({ hasText: 'MLB1' }).click();
    await form.getByRole('button', { name: 'OK' }).click();

    const dialog = page.locator('.arco-modal').filter({ hasText: `${SN} registered: device secret and pairing code` });
    await dialog.waitFor();
    pairingCode = await shownPairing(page, SN, `Pairing QR code for ${SN}`);
    expect(await dialog.innerText()).toContain('scans this QR code');
    await dialog.getByRole('button', { name: 'Copy pairing code' }).click();
    await toast(page, 'Pairing code copied');
    await dialog.getByRole('button', { name: 'Copy device secret' }).click();
    await toast(page, 'Secret copied');
    await dialog.getByRole('button', { name: 'Download QR code (SVG)' }).waitFor();
    await page.getByRole('button', { name: 'I have saved the secret' }).click();
    await dialog.waitFor({ state: 'detached' });
    // Shown once: the page no longer holds it, the server only its hash.
    expect(await page.locator('#root').innerText()).not.toContain(pairingCode);
    expect(await untranslated(page)).toEqual([]);
    expect(session.errors).toEqual([]);
  });

  it('the owner binds with that code through the app API, and the device list filters on the owner’s e-mail', async () => {
    expect((await app(bo, '/devices/bind', { sn: SN, pairingCode: 'AAAAA-AAAAA' })).code).not.toBe(0);
    expect(await app(ann, '/devices/bind', { sn: SN, pairingCode })).toMatchObject({ code: 0 });
    expect(await app(ann, `/devices/${SN}/share`, { email: bo.email })).toMatchObject({ code: 0 });
    await server.api('POST', '/api/admin/product/sn', { token: admin, body: { sn: 'E2E-BND-0002', modelId: (await server.api<Array<{ id: number }>>('GET', '/api/admin/product/model', { token: admin })).body.data[0]!.id } });

    const session = await openSignedIn(browser, server, '/device/list');
    sessions.push(session);
    const { page } = session;
    await row(page, 'E2E-BND-0002').waitFor();
    expect(await row(page, SN).innerText()).toContain(ann.email);
    const owner = page.locator('.device-filters .arco-form-item').filter({ has: page.locator('.arco-form-label-item', { hasText: 'Owner' }) });
    // Any case: the filter matches the account's e-mail.
    await owner.locator('input').fill(ann.email.toUpperCase());
    await page.getByRole('button', { name: 'Search' }).click();
    await row(page, 'E2E-BND-0002').waitFor({ state: 'detached', ...SETTLE });
    expect(await row(page, SN).count()).toBe(1);

    await row(page, SN).getByRole('button', { name: 'Details' }).click();
    const drawer = page.locator('[data-testid=device-detail]');
    await drawer.waitFor();
    expect(await drawer.innerText()).toContain('Owner and shared users');
    const shownOwner = drawer.getByTestId('device-owner');
    expect(await shownOwner.innerText()).toMatch(/Ann Binder[\s\S]*ann\.binder@example\.com[\s\S]*Active/);
    expect(await drawer.getByTestId('device-shared-users').innerText()).toMatch(/Bo Sharer[\s\S]*bo\.sharer@example\.com/);
    const link = shownOwner.getByRole('link', { name: ann.email });
    expect(await link.getAttribute('href')).toBe(`#/operation/user?keyword=${encodeURIComponent(ann.email)}`);
    await link.click();
    await page.waitForURL((url) => url.hash === `#/operation/user?keyword=${encodeURIComponent(ann.email)}`);
    await drawer.waitFor({ state: 'detached' });
    await row(page, ann.email).waitFor(SETTLE);
    // The link filters the user list to the owner: the user it is shared with is not listed.
    await expect.poll(() => page.locator('.arco-table-tr').filter({ hasText: bo.email }).count()).toBe(0);
    expect(session.errors).toEqual([]);
  });

  it('rotates the secret and shows a new pairing code and QR code in Chinese, dark; the binding stays', async () => {
    const session = await openSignedIn(browser, server, '/product/sn', { locale: 'zh-CN', theme: 'dark' });
    sessions.push(session);
    const { page } = session;
    await row(page, SN).getByRole('button', { name: '更换密钥' }).click();
    await confirmPopup(page);
    const dialog = page.locator('.arco-modal').filter({ hasText: `${SN} 的新设备密钥和配对码` });
    await dialog.waitFor();
    const rotated = await shownPairing(page, SN, `${SN} 的配对二维码`);
    expect(rotated).not.toBe(pairingCode);
    await dialog.getByRole('button', { name: '复制配对码' }).waitFor();
    await dialog.getByRole('button', { name: '复制设备密钥' }).waitFor();
    expect(await dialog.innerText()).toContain('旧密钥和旧配对码已失效');
    expect(await untranslated(page)).toEqual([]);
    await page.getByRole('button', { name: '我已保存密钥' }).click();
    await dialog.waitFor({ state: 'detached' });

    const detail = await server.api<DeviceDetail>('GET', `/api/admin/device/${SN}`, { token: admin });
    expect(detail.body.data.ownerUser).toMatchObject({ id: ann.id, email: ann.email });
    expect(session.errors).toEqual([]);
  });
});
