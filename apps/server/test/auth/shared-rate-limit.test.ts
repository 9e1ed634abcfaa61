import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitHits } from '../../src/rate-limit/rate-limit.sql.ts';
import { clientAddress, countHit, sweepEndedWindows } from '../../src/rate-limit/shared-store.ts';
import type { TestServer } from '../harness.ts';
import { EN, from, login, startAuthServer } from './fixtures.ts';

const LIMIT = 4;
const SECRET = 'a-device-auth-secret-for-tests';

/**
 * Two server nodes on one database (PGlite here, PostgreSQL with TEST_DATABASE_URL), as behind a
 * load balancer: the per-address limits are counted together, so a client spreading its requests
 * over both nodes is refused at the same total as on one.
 */
describe('rate limits shared by the server nodes', () => {
  let a: TestServer;
  let b: TestServer;
  const config = { loginRateLimitPerMinute: LIMIT, deviceAuthSecret: SECRET, deviceAuthRateLimitPerMinute: LIMIT };
  beforeAll(async () => {
    a = await startAuthServer({ config });
    b = await startAuthServer({ database: a.database, keepDatabase: true, config });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });
  const node = (i: number) => (i % 2 === 0 ? a : b);

  it('refuses the sign-in after the limit counted over both nodes, with the same answer on either', async () => {
    const ip = '10.8.0.1';
    for (let i = 0; i < LIMIT; i++) {
      expect((await login(node(i), { username: 'someone', password: 'Wrong#Pass1', ip })).status, `request ${i + 1}`).toBe(400);
    }
    for (const server of [a, b]) {
      const refused = await login(server, { username: 'someone', password: 'Wrong#Pass1', ip, lang: EN });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ code: 40029, msg: 'Too many requests, try again later', data: null, status: 'fail' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    }
    // Another address, and another endpoint for the same address, keep their own counts.
    expect((await login(b, { username: 'someone', password: 'Wrong#Pass1', ip: '10.8.0.2' })).status).toBe(400);
    expect((await a.api('POST', '/api/admin/user/verification-code', { body: {}, headers: from(ip) })).status).toBe(200);
  });

  it('lets exactly the limit through when requests arrive on both nodes at once', async () => {
    const ip = '10.8.1.1';
    const statuses = await Promise.all(
      Array.from({ length: 3 * LIMIT }, (_, i) => node(i).api('POST', '/api/admin/user/verification-code', { body: {}, headers: from(ip) }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2 * LIMIT);
  });

  it('counts the app API (sign-in, password reset) over both nodes', async () => {
    for (const path of ['/api/app/v1/user/login', '/api/app/v1/user/forgot-password']) {
      // A mailbox of its own per request: forgot-password also limits each mailbox, below this limit.
      const body = (i: number) => (path.endsWith('login') ? { email: 'nobody@mowerline.test', password: 'Wrong#Pass1' } : { email: `nobody${i}@mowerline.test` });
      const statuses: number[] = [];
      for (let i = 0; i <= LIMIT; i++) statuses.push((await node(i + 1).api('POST', path, { body: body(i), headers: from('10.8.2.1') })).status);
      expect(statuses.slice(0, LIMIT), path).not.toContain(429);
      expect(statuses[LIMIT], path).toBe(429);
    }
  });

  it('counts device-auth callers without the secret over both nodes, and never the broker', async () => {
    const body = { username: 'D000000001', password: 'x', clientid: 'D000000001' };
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) statuses.push((await node(i).api('POST', '/api/device-auth/mqtt', { body, headers: from('10.8.3.1') })).status);
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(401), 429]);
    // The broker, from the same address, carries the secret: not counted, not refused.
    const broker = await b.api('POST', '/api/device-auth/mqtt', { body, headers: from('10.8.3.1', { 'x-device-auth-secret': SECRET }) });
    expect(broker.status).toBe(403);
  });
});

describe('the shared counter', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startAuthServer();
  });
  afterAll(() => server?.close());

  it('starts a new window once the last one ended, and the cleanup removes only ended windows', async () => {
    const db = server.database.db;
    const t0 = new Date('2026-03-01T10:00:00Z');
    const at = (ms: number) => new Date(t0.getTime() + ms);
    expect(await countHit(db, 'test window', 60_000, t0)).toEqual({ current: 1, ttl: 60_000 });
    expect(await countHit(db, 'test window', 60_000, at(15_000))).toEqual({ current: 2, ttl: 45_000 });
    expect(await countHit(db, 'test window', 60_000, at(59_999))).toEqual({ current: 3, ttl: 1 });
    expect(await countHit(db, 'test window', 60_000, at(60_000))).toEqual({ current: 1, ttl: 60_000 });

    // The window above ended in 2026-03 (before the test's clock); a live one stays.
    await countHit(db, 'test live', 60_000);
    await sweepEndedWindows(db);
    const left = async (key: string) => (await db.select({ n: count() }).from(rateLimitHits).where(eq(rateLimitHits.key, key)))[0]!.n;
    expect(await left('test window')).toBe(0);
    expect(await left('test live')).toBe(1);
  });

  it('keys IPv6 clients by their /64 and IPv4-mapped ones as IPv4, like the plugin', () => {
    expect(clientAddress('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientAddress('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(clientAddress('2001:DB8::1')).toBe('2001:db8:0:0::/64');
    expect(clientAddress('::1')).toBe('0:0:0:0::/64');
    expect(clientAddress('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(clientAddress('10.1.2.3')).toBe('10.1.2.3');
  });
});
