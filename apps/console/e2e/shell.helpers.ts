import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestServer } from '../../server/test/harness.ts';
import { ADMIN, openConsole } from './harness.ts';

export interface Session {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

/** A fresh profile on `hash` (the guard may send it to the sign-in page). */
export function open(browser: Browser, server: TestServer, hash: string, locale: 'zh-CN' | 'en-US' = 'en-US'): Promise<Session> {
  return openConsole(browser, server, hash, { locale });
}

/** Fills and sends the sign-in form. */
export async function submitLogin(page: Page, username: string = ADMIN.username, password: string = ADMIN.password, remember = false) {
  await page.locator('input[name=username]').fill(username);
  await page.locator('input[name=password]').fill(password);
  if (remember) await page.getByTestId('login-remember').click();
  await page.getByTestId('login-submit').click();
}

/** Signs in through the form and waits until the console has left the sign-in page. */
export async function signIn(page: Page, username: string = ADMIN.username, password: string = ADMIN.password, remember = false) {
  await page.locator('input[name=username]').waitFor();
  await submitLogin(page, username, password, remember);
  await page.waitForURL((url) => !url.hash.startsWith('#/login'));
  await page.locator('.layout-navbar').waitFor();
}

/** A toast (Arco Message) with this text. */
export function toast(page: Page, text: string | RegExp) {
  return page.locator('.arco-message').filter({ hasText: text }).first();
}

/** Everything the page keeps in web storage, to check what is (not) stored. */
export function storage(page: Page): Promise<{ local: Record<string, string>; session: Record<string, string> }> {
  return page.evaluate(() => ({ local: { ...localStorage }, session: { ...sessionStorage } }));
}

/** The access token the console holds (session storage, or local storage when remembered). */
export async function accessToken(page: Page): Promise<string | null> {
  return page.evaluate(() => sessionStorage.getItem('token') ?? localStorage.getItem('token'));
}

/** Hash part of the page URL without the `#`. */
export const hashOf = (page: Page) => new URL(page.url()).hash.slice(1);
