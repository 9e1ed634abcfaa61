import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sessions } from '../../server/src/auth/auth.sql.ts';
import { systemLogs } from '../../server/src/system-log/system-log.sql.ts';
import { staffFactors } from '../../server/src/two-factor/two-factor.sql.ts';
import type { TestServer } from '../../server/test/harness.ts';
import { ADMIN, launchBrowser, startConsoleServer } from './harness.ts';
import type { Page } from 'playwright-core';
import { SETTLE, takeExpectedErrors, type Opened } from './pages.helpers.ts';

/**
 * Two-factor sign-in in the browser, with REQUIRE_2FA_ROLES=admin: the first admin is walked to
 * enrolment, enrols an authenticator app (the code computed here from the secret the page shows,
 * as an app would), then signs in with a code, and in Chinese with a recovery code; a step-up
 * action asks for the factor in a dialog and goes through.
 */
describe('two-factor sign-in (browser)', () => {
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let secret = '';
  let recoveryCodes: string[] = [];
  const opened: Opened[] = [];

  /** The authenticator's current code; used steps are forgotten first, as 30 seconds passing would. */
  const code = async () => {
    await server.ctx.db.update(staffFactors).set({ lastStep: 0 });
    return OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), period: 30 });
  };

  async function open(locale: 'en-US' | 'zh-CN', base = server.url, before?: (page: Page) => Promise<void>): Promise<Opened> {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript((l) => {
      if (!localStorage.getItem('locale')) localStorage.setItem('locale', l);
    }, locale);
    const page = await context.newPage();
    await before?.(page);
    const errors: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(`${msg.text()} ${msg.location().url ?? ''}`.trim());
    });
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(`${base}/#/login`);
    await page.locator('input[name=username]').fill(ADMIN.username);
    await page.locator('input[name=password]').fill(ADMIN.password);
    await page.locator('button[type=submit]').click();
    const o = { context, page, errors };
    opened.push(o);
    return o;
  }

  beforeAll(async () => {
    server = await startConsoleServer({ require2faRoles: ['admin'] });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const o of opened) await o.context.close();
    await browser?.cleanup();
    await server?.close();
  });

  it('the first admin is walked to enrolment and enrols an authenticator app with a generated code', async () => {
    const { page, errors } = await open('en-US');
    await page.waitForURL((url) => url.hash.startsWith('#/user/center'));
    await page.getByTestId('two-factor-required').waitFor();
    // Other pages are out of reach until a factor is enrolled.
    await page.goto(`${server.url}/#/dashboard/workplace`);
    await page.waitForURL((url) => url.hash.startsWith('#/user/center'));

    await page.getByTestId('add-totp').click();
    secret = (await page.getByTestId('totp-secret').innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByTestId('totp-code').fill(await code());
    await page.getByTestId('totp-activate').click();
    const codesText = await page.getByTestId('recovery-codes').innerText();
    recoveryCodes = codesText.trim().split(/\s+/);
    expect(recoveryCodes).toHaveLength(10);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByTestId('second-factors').getByText('Authenticator app', { exact: true }).first().waitFor();

    await page.goto(`${server.url}/#/dashboard/workplace`);
    await page.waitForURL((url) => url.hash.startsWith('#/dashboard/workplace'));
    await page.locator('.layout-page').waitFor();
    // The calls refused before enrolment (403, enrol first) are the only errors.
    takeExpectedErrors(errors, /403/);
    expect(errors).toEqual([]);
  });

  it('signs in with a password and a code from the authenticator app (English)', async () => {
    const { page, errors } = await open('en-US');
    await page.getByTestId('second-factor-form').waitFor();
    await page.getByText('Enter the 6-digit code from your authenticator app.').waitFor();
    await page.getByTestId('second-factor-code').fill(await code());
    await page.getByTestId('second-factor-submit').click();
    await page.waitForURL((url) => url.hash.startsWith('#/dashboard/workplace'), SETTLE);
    expect(errors.filter((e) => !/400/.test(e))).toEqual([]);
  });

  it('signs in with a recovery code (Chinese); the code works once', async () => {
    const { page } = await open('zh-CN');
    await page.getByTestId('second-factor-form').waitFor();
    await page.getByText('使用恢复码').click();
    await page.getByText('请输入一个恢复码。每个恢复码只能使用一次。').waitFor();
    await page.getByTestId('second-factor-code').fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: '验证并登录' }).click();
    await page.waitForURL((url) => url.hash.startsWith('#/dashboard/workplace'), SETTLE);

    const again = await open('zh-CN');
    await again.page.getByTestId('second-factor-form').waitFor();
    await again.page.getByText('使用恢复码').click();
    await again.page.getByTestId('second-factor-code').fill(recoveryCodes[0]!);
    await again.page.getByRole('button', { name: '验证并登录' }).click();
    await again.page.locator('.arco-message').filter({ hasText: '验证码或恢复码错误' }).first().waitFor();
    expect(again.page.url()).toContain('#/login');
  });

  it('a step-up action without a recent confirmation asks for the factor in a dialog, then goes through', async () => {
    const { page } = await open('en-US');
    await page.getByTestId('second-factor-code').fill(await code());
    await page.getByTestId('second-factor-submit').click();
    await page.waitForURL((url) => url.hash.startsWith('#/dashboard/workplace'), SETTLE);
    // Ten minutes later, as far as the server knows.
    await server.ctx.db.update(sessions).set({ stepUpAt: new Date(Date.now() - 3_600_000) });

    await page.goto(`${server.url}/#/user/center?tab=security`);
    await page.getByRole('button', { name: 'New recovery codes' }).click();
    await page.locator('.arco-popconfirm').getByRole('button', { name: 'OK' }).click();
    await page.getByText('Confirm it is you').waitFor();
    await page.getByTestId('step-up-input').fill(await code());
    await page.getByTestId('step-up-confirm').click();
    const fresh = (await page.getByTestId('recovery-codes').innerText()).trim().split(/\s+/);
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(recoveryCodes[1]);
  });

  it('enrols a passkey and signs in with it through a virtual authenticator, in both languages', async () => {
    // WebAuthn needs a domain, not an IP: the console on localhost (RP id localhost).
    const local = server.url.replace('127.0.0.1', 'localhost');
    const authenticator = async (page: Page) => {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
      });
    };
    const { page } = await open('en-US', local, authenticator);
    await page.getByTestId('second-factor-code').fill(await code());
    await page.getByTestId('second-factor-submit').click();
    await page.waitForURL((url) => url.hash.startsWith('#/dashboard/workplace'), SETTLE);
    await page.goto(`${local}/#/user/center?tab=security`);
    await page.getByTestId('add-passkey').click();
    await page.getByTestId('second-factors').getByText('Passkey', { exact: true }).first().waitFor();

    for (const [locale, label] of [['en-US', 'Use a passkey'], ['zh-CN', '使用通行密钥']] as const) {
      // Signed out in the same browser (the authenticator holds the passkey).
      await page.evaluate((l) => {
        sessionStorage.clear();
        localStorage.removeItem('token');
        localStorage.setItem('locale', l);
      }, locale);
      await page.goto(`${local}/#/login`);
      await page.reload();
      await page.locator('input[name=username]').fill(ADMIN.username);
      await page.locator('input[name=password]').fill(ADMIN.password);
      await page.locator('button[type=submit]').click();
      await page.getByRole('button', { name: label }).click();
      await page.waitForURL((url) => url.hash.startsWith('#/dashboard/workplace'), SETTLE);
    }
    const logins = await server.ctx.db.select().from(systemLogs).where(eq(systemLogs.action, 'auth.login'));
    expect(logins.filter((r) => (r.detail as { factor?: string }).factor === 'webauthn')).toHaveLength(2);
  });
});
