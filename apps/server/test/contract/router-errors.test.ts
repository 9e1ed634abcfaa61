import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errors } from '@mowerline/contract';
import { startServer, type TestServer } from '../harness.ts';

/**
 * Found by the fuzz suite: a path parameter past Fastify's `maxParamLength` (100) was answered by
 * the router itself, 414 with Fastify's own body, and a malformed percent-encoding with its own
 * 400 body: no envelope, no documented status. Both are now the 400 envelope of any invalid input.
 */
describe('errors the router answers before any hook', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.close());

  it('a path parameter longer than the router allows: 400 envelope', async () => {
    const token = await server.login();
    const res = await server.api('PUT', `/api/admin/product/model/${'1'.repeat(200)}`, { token, body: { name: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: errors.VALIDATION.code, status: 'fail' });
  });

  it('a malformed percent-encoding in the path: 400 envelope', async () => {
    const res = await fetch(`${server.url}/api/admin/device/%E0%A4%A`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: errors.VALIDATION.code, status: 'fail' });
  });
});
