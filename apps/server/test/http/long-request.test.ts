import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints, errors } from '@mowerline/contract';
import { startServer, type TestServer } from '../harness.ts';
import { answerProblem } from '../answer-check.ts';

/**
 * A query string past 16 KB was answered 431 by Node's header limit, with Fastify's own body and
 * documented nowhere. Now it is the error envelope (HEADERS_TOO_LARGE), and 431 is among the
 * documented answers of every operation of the OpenAPI document.
 */
describe('a request line or headers past the limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.close());

  const envelope = { code: errors.HEADERS_TOO_LARGE.code, msg: errors.HEADERS_TOO_LARGE['zh-CN'], data: null, status: 'fail' };

  it('a 17 KB query string: 431 with the envelope, as documented, signed in or not', async () => {
    const token = await server.login();
    for (const path of ['/api/admin/user', '/api/health', '/api/app/v1/user/profile']) {
      const url = `${path}?keyword=${'k'.repeat(17 * 1024)}`;
      const res = await fetch(server.url + url, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, path).toBe(431);
      const body: unknown = await res.json();
      expect(body).toEqual(envelope);
      expect(answerProblem('GET', url, res.status, body)).toBeUndefined();
    }
  });

  it('headers past the limit get the same answer; a query just under it reaches the route', async () => {
    const big = await fetch(`${server.url}/api/health`, { headers: { 'x-filler': 'f'.repeat(17 * 1024) } });
    expect(big.status).toBe(431);
    expect(await big.json()).toEqual(envelope);
    const under = await fetch(`${server.url}/api/health?pad=${'p'.repeat(15 * 1024)}`);
    expect(under.status).toBe(200);
  });

  it('431 is documented on every operation of the OpenAPI document', async () => {
    const doc = (await (await fetch(`${server.url}/api/docs/json`)).json()) as { paths: Record<string, Record<string, { responses?: Record<string, { description?: string }> }>> };
    let operations = 0;
    for (const [, def] of allEndpoints()) {
      if (def.websocket) continue;
      const operation = doc.paths[def.path.replace(/:(\w+)/g, '{$1}')]?.[def.method.toLowerCase()];
      expect(operation?.responses?.['431'], `${def.method} ${def.path}`).toBeDefined();
      expect(operation?.responses?.['431']?.description).toContain(String(errors.HEADERS_TOO_LARGE.code));
      operations++;
    }
    expect(operations).toBeGreaterThan(100);
  });
});
