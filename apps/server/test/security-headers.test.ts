import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness.ts';

/** Issue 12 §8: no CSP, X-Frame-Options, X-Content-Type-Options or Referrer-Policy were sent. */
describe('security headers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('sends the CSP, frame, sniffing and referrer headers on API answers and errors alike', async () => {
    for (const [method, path] of [['GET', '/api/health'], ['POST', '/api/admin/user/verification-code'], ['GET', '/api/admin/user/info'], ['GET', '/no-such-page']] as const) {
      const res = await fetch(`${server.url}${path}`, { method });
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("script-src 'self'");
      expect(csp).toContain("worker-src 'self' blob:");
      expect(csp).toContain("style-src 'self' 'unsafe-inline'");
      expect(csp).toContain("img-src 'self' data: blob:");
      expect(csp).toContain("connect-src 'self' ws: wss:");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });
});
