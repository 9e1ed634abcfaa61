import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { authModule } from '../../src/auth/auth.module.ts';
import { loginAttempts } from '../../src/auth/auth.sql.ts';
import { pruneAttempts } from '../../src/auth/login-attempts.service.ts';
import { startServer, type TestServer } from '../harness.ts';
import { waitFor } from '../devices/fixtures.ts';

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

  it('runs hourly while the auth module runs: its start owns the timer, its stop clears it', async () => {
    // Only the intervals are faked: the database and the polling below keep real time.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const auth = authModule(server.ctx);
      await auth.start!();
      expect(vi.getTimerCount()).toBe(1);
      const stale = () => ({ username: 'stale', ip: '10.0.0.2', success: false, reason: 'wrong_password' as const, at: new Date(Date.now() - 3 * 86_400_000) });
      await server.ctx.db.insert(loginAttempts).values(stale());
      vi.advanceTimersByTime(3_600_000);
      await waitFor(async () => (await server.ctx.db.select().from(loginAttempts).where(eq(loginAttempts.username, 'stale'))).length === 0, 10_000, 'the hourly prune');
      await auth.stop!();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
