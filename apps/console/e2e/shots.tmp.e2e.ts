import { afterAll, beforeAll, it } from 'vitest';
import type { TestServer } from '../../server/test/harness.ts';
import { launchBrowser, startConsoleServer } from './harness.ts';
import { open, signIn } from './shell.helpers.ts';

let server: TestServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  const admin = await server.login();
  for (const u of ['mia', 'leo', 'zoe']) await server.api('POST', '/api/admin/user', { token: admin, body: { username: u, name: u, email: `${u}@example.com`, role: 'user' } });
  await server.api('POST', '/api/admin/user/register', { body: { username: 'carol', name: 'Carol Wu', email: 'carol@example.com', password: 'Hedge#Trim99', reason: 'Joining the support team' } });
});
afterAll(async () => {
  await browser?.cleanup();
  await server?.close();
});

it('shots', async () => {
  for (const [locale, theme] of [['zh-CN', 'light'], ['en-US', 'dark']] as const) {
    const s = await open(browser, server, '/login', locale);
    if (theme === 'dark') {
      await s.page.evaluate(() => localStorage.setItem('mowerline-settings', JSON.stringify({ state: { theme: 'dark' }, version: 0 })));
      await s.page.reload();
    }
    await s.page.waitForTimeout(600);
    await s.page.screenshot({ path: `/tmp/shots/login-${locale}-${theme}.png` });
    await s.page.getByTestId('login-submit').click();
    await s.page.waitForTimeout(300);
    await s.page.screenshot({ path: `/tmp/shots/login-errors-${locale}.png`, clip: { x: 700, y: 200, width: 740, height: 500 } });
    await s.page.goto(`${server.url}/#/register`);
    await s.page.waitForTimeout(600);
    await s.page.screenshot({ path: `/tmp/shots/register-${locale}-${theme}.png` });
    await s.page.goto(`${server.url}/#/login`);
    await signIn(s.page);
    await s.page.goto(`${server.url}/#/system/system-user`);
    await s.page.waitForTimeout(1200);
    await s.page.screenshot({ path: `/tmp/shots/layout-${locale}-${theme}.png` });
    await s.page.getByTestId('message-box-button').click();
    await s.page.getByTestId('message-box-tab-notice').click();
    await s.page.waitForTimeout(800);
    await s.page.screenshot({ path: `/tmp/shots/msgbox-${locale}-${theme}.png` });
    await s.page.keyboard.press('Escape');
    await s.page.mouse.click(700, 600);
    await s.page.getByTestId('user-menu').click();
    await s.page.waitForTimeout(400);
    await s.page.screenshot({ path: `/tmp/shots/usermenu-${locale}-${theme}.png`, clip: { x: 1040, y: 0, width: 400, height: 300 } });
    await s.page.keyboard.press('Escape');
    await s.page.mouse.click(700, 600);
    await s.page.getByTestId('tabbar-system-user').click({ button: 'right' });
    await s.page.waitForTimeout(400);
    await s.page.screenshot({ path: `/tmp/shots/tabmenu-${locale}-${theme}.png`, clip: { x: 200, y: 60, width: 600, height: 320 } });
    await s.page.keyboard.press('Escape');
    await s.page.goto(`${server.url}/#/nothing-here`);
    await s.page.waitForTimeout(600);
    await s.page.screenshot({ path: `/tmp/shots/notfound-${locale}-${theme}.png` });
    await s.page.goto(`${server.url}/#/dashboard/workplace`);
    await s.page.waitForTimeout(800);
    await s.page.evaluate(() => {
      const raw = JSON.parse(localStorage.getItem('mowerline-settings')!);
      Object.assign(raw.state, { topMenu: true, themeColor: '#722ED1' });
      localStorage.setItem('mowerline-settings', JSON.stringify(raw));
    });
    await s.page.reload();
    await s.page.waitForTimeout(1200);
    await s.page.screenshot({ path: `/tmp/shots/topmenu-${locale}-${theme}.png` });
    console.log(locale, s.errors);
    await s.context.close();
  }
  const m = await open(browser, server, '/dashboard/workplace', 'en-US');
  await m.page.setViewportSize({ width: 420, height: 860 });
  await signIn(m.page);
  await m.page.waitForTimeout(800);
  await m.page.screenshot({ path: '/tmp/shots/mobile.png' });
  await m.page.getByTestId('navbar-menu-button').click();
  await m.page.waitForTimeout(600);
  await m.page.screenshot({ path: '/tmp/shots/mobile-menu.png' });
  await m.context.close();
});
