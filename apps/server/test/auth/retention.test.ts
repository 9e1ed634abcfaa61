import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAttempts } from '../../src/auth/auth.sql.ts';
import { pruneAttempts } from '../../src/auth/login-attempts.service.ts';
import { startServer, type TestServer } from '../harness.ts';

describe('sign-in attempt retention', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('deletes attempts older than a day (or the lock-out window) and keeps recent ones', async () => {
    const day = 86_400_000;
    await server.ctx.db.insert(loginAttempts).values([
      { username: 'old', ip: '10.0.0.1', success: false, reason: 'wrong_password', at: new Date(Date.now() - 2 * day) },
      { username: 'recent', ip: '10.0.0.1', success: false, reason: 'wrong_password', at: new Date(Date.now() - day / 2) },
    ]);
    await pruneAttempts(server.ctx);
    const left = (await server.ctx.db.select({ username: loginAttempts.username }).from(loginAttempts)).map((r) => r.username);
    expect(left).toContain('recent');
    expect(left).not.toContain('old');
  });
});
