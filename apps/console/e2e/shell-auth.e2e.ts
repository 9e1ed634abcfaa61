import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../server/test/harness.ts';
import { ADMIN, launchBrowser, startConsoleServer } from './harness.ts';
import { accessToken, hashOf, open, signIn, storage, submitLogin, toast } from './shell.helpers.ts';

describe('console shell: sign-in, redirects and logout', () => {
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    // Wrong passwords in these tests must not turn the captcha on for everyone at 127.0.0.1.
    server = await startConsoleServer({ captchaAfterFailures: 1000 });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.cleanup();
    await server?.close();
  });

  it('sends a signed-out visitor to login with the target and its query, and back after sign-in', async () => {
    const { page, context, errors } = await open(browser, server, '/system/system-log?actor=admin');
    await page.waitForURL(/#\/login\?/);
    expect(hashOf(page)).toBe('/login?redirect=system-log&actor=admin');
    await signIn(page);
    expect(hashOf(page)).toBe('/system/system-log?actor=admin');
    await toast(page, 'welcome to use').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the banner slogans and every validation message in both languages', async () => {
    const { page, context, errors } = await open(browser, server, '/login', 'en-US');
    const slogans = page.getByTestId('login-slogan');
    await expect.poll(() => slogans.allInnerTexts()).toEqual([
      expect.stringContaining('360° air vision'),
      expect.stringContaining('Auto mulching, no dumping'),
      expect.stringContaining('Removable powerful battery'),
    ]);
    await expect.poll(() => page.locator('input[name=username]').getAttribute('placeholder')).toContain('admin');
    expect(await page.locator('input[name=password]').getAttribute('placeholder')).toContain('admin');

    await page.getByTestId('login-submit').click();
    await page.getByText('Username cannot be empty').waitFor();
    await page.getByText('Password cannot be empty').waitFor();
    await page.locator('input[name=username]').fill('admin');
    await page.getByText('Username cannot be empty').waitFor({ state: 'detached' });
    await page.getByText('Password cannot be empty').waitFor();

    await page.getByTestId('login-language').click();
    await page.getByText('密码不能为空').waitFor();
    await page.locator('input[name=username]').fill('');
    await page.getByText('用户名不能为空').waitFor();
    await expect.poll(() => slogans.allInnerTexts()).toEqual([
      expect.stringContaining('360° 空中视野'),
      expect.stringContaining('自动覆盖还田，无需倾倒'),
      expect.stringContaining('可拆卸大功率电池'),
    ]);
    expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('zh-CN');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('refuses a wrong password with the server message, keeps no token, and reports a broken answer', async () => {
    const { page, context } = await open(browser, server, '/login', 'en-US');
    await submitLogin(page, ADMIN.username, 'not-the-password');
    await toast(page, 'Wrong username or password').waitFor();
    expect(await accessToken(page)).toBeNull();
    expect(hashOf(page)).toBe('/login');

    await page.getByTestId('login-language').click();
    await submitLogin(page, ADMIN.username, 'still-wrong');
    await toast(page, '用户名或密码错误').waitFor();

    // A success envelope without a token is not a session: the form's own message shows.
    await page.route('**/api/admin/user/login', (route) =>
      route.fulfill({ contentType: 'application/json', body: JSON.stringify({ code: 0, msg: '', data: null, status: 'ok' }) }),
    );
    await submitLogin(page);
    await toast(page, '登录出错，请刷新重试').waitFor();
    await page.getByTestId('login-language').click();
    await submitLogin(page);
    await toast(page, 'Login error, refresh and try again').waitFor();
    expect(await accessToken(page)).toBeNull();
    await context.close();
  });

  it('remembers the username (never the password) with a longer session, and helps password managers', async () => {
    const { page, context } = await open(browser, server, '/login');
    expect(await page.locator('input[name=username]').getAttribute('autocomplete')).toBe('username');
    expect(await page.locator('input[name=password]').getAttribute('autocomplete')).toBe('current-password');
    expect(await page.locator('form input[name=password]').count()).toBe(1);
    await signIn(page, ADMIN.username, ADMIN.password, true);
    const stored = await storage(page);
    expect(stored.local.login_username).toBe(ADMIN.username);
    expect(stored.local.token).toBeTruthy();
    expect(stored.session.token).toBeUndefined();
    expect(stored.local.security_token).toBeTruthy();
    expect(JSON.stringify(stored)).not.toContain(ADMIN.password);

    // A new tab of the same profile is still signed in and finds the username filled in after logout.
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-logout').click();
    await page.waitForURL(/#\/login\?redirect=workplace/);
    expect(await page.locator('input[name=username]').inputValue()).toBe(ADMIN.username);
    expect(await page.getByTestId('login-remember').locator('input').isChecked()).toBe(true);
    await context.close();
  });

  it('logs out: the server session dies, the token goes, and the page asks to sign in again', async () => {
    const { page, context } = await open(browser, server, '/dashboard/workplace');
    await signIn(page);
    const token = await accessToken(page);
    expect((await server.api('GET', '/api/admin/user/info', { token: token! })).status).toBe(200);
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-logout').click();
    await page.waitForURL(/#\/login\?redirect=workplace/);
    await toast(page, 'Signed out').waitFor();
    expect(await accessToken(page)).toBeNull();
    expect((await server.api('GET', '/api/admin/user/info', { token: token! })).status).toBe(401);
    await page.goto(`${server.url}/#/system/system-user`);
    await page.waitForURL(/#\/login\?redirect=system-user/);
    await context.close();
  });

  it('logs out when the server answers 401 to a request', async () => {
    const { page, context } = await open(browser, server, '/dashboard/workplace');
    await signIn(page);
    await page.waitForLoadState('networkidle');
    const token = await accessToken(page);
    // The session is ended elsewhere (another tab, an administrator, expiry).
    expect((await server.api('POST', '/api/admin/user/logout', { token: token! })).body.code).toBe(0);
    await page.getByTestId('message-box-button').click();
    await page.waitForURL(/#\/login\?redirect=workplace/);
    await page.locator('input[name=username]').waitFor();
    expect(await accessToken(page)).toBeNull();
    // The browser's trust token survives (a 401 may even renew it), so the next sign-in skips the captcha.
    expect((await storage(page)).local.security_token).toBeTruthy();
    await context.close();
  });

  it('opens forgot-password and register from the sign-in page and both work against the server', async () => {
    const { page, context, errors } = await open(browser, server, '/login');
    await page.getByText('Forgot password').click();
    await page.waitForURL(/#\/forgot-password/);
    await page.getByPlaceholder('Username or e-mail').fill('admin');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('Check your e-mail').waitFor();
    await page.getByText('Back to sign-in').click();
    await page.waitForURL(/#\/login/);

    await page.getByText('Register account').click();
    await page.waitForURL(/#\/register/);
    await page.getByPlaceholder('Username (letters, digits, . _ -)').fill('newbie');
    await page.getByPlaceholder('Full name').fill('New Bie');
    await page.getByPlaceholder('E-mail').fill('newbie@example.com');
    await page.getByPlaceholder('New password', { exact: true }).fill('Fresh#Grass77');
    await page.getByPlaceholder('Confirm new password').fill('Fresh#Grass77');
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.getByText('Request sent').waitFor();
    const admin = await server.login();
    const list = await server.api<{ list: Array<{ username: string; status: string }> }>('GET', '/api/admin/user?keyword=newbie', { token: admin });
    expect(list.body.data.list.find((u) => u.username === 'newbie')?.status).toBe('pending');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('resets a password from the mailed link (token in the hash query)', async () => {
    const admin = await server.login();
    const created = await server.api<{ id: number }>('POST', '/api/admin/user', {
      token: admin,
      body: { username: 'resetme', name: 'Reset Me', email: 'resetme@example.com', role: 'user', password: 'Old#Mower123' },
    });
    expect(created.body.code).toBe(0);
    // The mailed link, caught on its way to the mailer (the e-mail log keeps no bodies).
    const mailer = server.ctx.mailer;
    const send = mailer.send.bind(mailer);
    const links: string[] = [];
    mailer.send = (mail) => {
      const link = (mail.params as { link?: string }).link;
      if (link) links.push(link);
      return send(mail);
    };
    expect((await server.api('POST', '/api/admin/user/forgot-password', { body: { username: 'resetme' } })).body.code).toBe(0);
    // The server mails in the background (the answer must not reveal whether the account exists).
    await expect.poll(() => links.length).toBe(1);
    mailer.send = send;
    const token = /reset-password\?token=([^&]+)/.exec(links[0] ?? '')?.[1];
    expect(token).toBeTruthy();

    const { page, context } = await open(browser, server, `/reset-password?token=${token}`);
    await page.getByPlaceholder('New password', { exact: true }).fill('New#Mower456');
    await page.getByPlaceholder('Confirm new password').fill('New#Mower456');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.waitForURL(/#\/login$/);
    await signIn(page, 'resetme', 'New#Mower456');
    await context.close();

    const missing = await open(browser, server, '/reset-password');
    await missing.page.getByText('Invalid reset link').waitFor();
    await missing.context.close();
  });
});

describe('console shell: captcha after failed sign-ins', () => {
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;

  beforeAll(async () => {
    server = await startConsoleServer({ captchaWork: 300 });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.cleanup();
    await server?.close();
  });

  it('shows the proof-of-work captcha when the server asks, solves it in the browser, and takes a new one after each failure', async () => {
    const { page, context } = await open(browser, server, '/login');
    const answer = (path: string) => page.waitForResponse((r) => r.url().endsWith(path));
    for (let i = 0; i < server.config.captchaAfterFailures; i++) {
      const refused = answer('/api/admin/user/login');
      await submitLogin(page, ADMIN.username, `wrong-${i}`);
      await refused;
    }
    // The widget's code arrives only now, and it solves the challenge by itself.
    await page.locator('[data-level="1"] altcha-widget').getByText('Verified').waitFor();

    // A wrong password spends the solution: a new, harder challenge is solved in its place.
    await submitLogin(page, ADMIN.username, 'wrong-again');
    await toast(page, 'Wrong username or password').waitFor();
    await page.locator('[data-level="2"] altcha-widget').getByText('Verified').waitFor();

    const sent = page.waitForRequest((r) => r.url().endsWith('/api/admin/user/login'));
    await submitLogin(page, ADMIN.username, ADMIN.password);
    const body = (await sent).postDataJSON() as { captcha: string };
    const payload = JSON.parse(Buffer.from(body.captcha, 'base64').toString()) as { challenge: { parameters: { data: { level: number } } }; solution: { counter: number } };
    expect(payload.challenge.parameters.data.level).toBe(2);
    expect(payload.solution.counter).toBeGreaterThan(server.config.captchaWork);
    await page.waitForURL(/#\/dashboard\/workplace/);
    await context.close();
  });
});
