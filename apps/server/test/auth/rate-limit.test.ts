import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../harness.ts';
import { auditRows, EN, from, login, startAuthServer } from './fixtures.ts';

describe('rate limit on the account endpoints', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startAuthServer({ config: { loginRateLimitPerMinute: 3 } });
  });
  afterAll(() => server.close());

  it('answers the 4th sign-in from one IP within a minute with the RATE_LIMITED envelope, in both languages', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await login(server, { username: 'someone', password: 'Wrong#Pass1', ip: '10.3.0.1' })).status).toBe(400);
    }
    const zh = await login(server, { username: 'someone', password: 'Wrong#Pass1', ip: '10.3.0.1' });
    expect(zh.status).toBe(429);
    expect(zh.body).toEqual({ code: 40029, msg: '请求过于频繁，请稍后再试', data: null, status: 'fail' });
    expect(Number(zh.headers.get('retry-after'))).toBeGreaterThan(0);
    const en = await login(server, { username: 'someone', password: 'Wrong#Pass1', ip: '10.3.0.1', lang: EN });
    expect(en.status).toBe(429);
    expect(en.body).toMatchObject({ code: 40029, msg: 'Too many requests, try again later' });
    // Refused before the handler: no further attempts were recorded or audited.
    expect(await auditRows(server, 'auth.login')).toHaveLength(3);

    // Another address is not affected.
    expect((await login(server, { username: 'someone', password: 'Wrong#Pass1', ip: '10.3.0.2' })).status).toBe(400);
  });

  it('limits the captcha, forgot-password, reset-password and register endpoints the same way', async () => {
    const calls: Array<[string, unknown]> = [
      ['/api/admin/user/verification-code', {}],
      ['/api/admin/user/forgot-password', { username: 'someone' }],
      ['/api/admin/user/reset-password', { token: 'x'.repeat(43), newPassword: 'N3w#Password' }],
      ['/api/admin/user/register', { username: 'newbie', name: 'New Bie', email: 'newbie@mowerline.test', password: 'weak' }],
    ];
    for (const [path, body] of calls) {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await server.api('POST', path, { body, headers: from('10.3.1.1') })).status);
      expect(statuses.slice(0, 3), path).not.toContain(429);
      expect(statuses[3], path).toBe(429);
    }
  });
});
