import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as Fastify from 'fastify';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { allEndpoints } from '@mowerline/contract';
import type { TestServer } from '../harness.ts';
import { startServer } from '../harness.ts';

/** Every route Fastify registers, seen from the first moment of the instance (before any plugin). */
const seen = vi.hoisted(() => [] as { method: string; url: string; fromTable: boolean }[]);
vi.mock('fastify', async (importOriginal) => {
  const fastify = await importOriginal<typeof Fastify>();
  const create = (options?: Fastify.FastifyServerOptions) => {
    const app = fastify.default(options) as unknown as FastifyInstance;
    app.addHook('onRoute', (route: RouteOptions) => {
      for (const method of Array.isArray(route.method) ? route.method : [route.method]) seen.push({ method, url: route.url, fromTable: !!route.config?.endpoint });
    });
    return app;
  };
  return { ...fastify, default: create };
});

/**
 * Issue 11: "an endpoint missing from the table cannot be served". Every route under /api/ (the
 * OpenAPI UI under /api/docs aside) must be registered from the contract's endpoint table, and
 * every table endpoint must be served. The server enforces the first at start-up too
 * (`requireEndpointTable`); this test names every stray route at once.
 */
describe('the routes served are the endpoint table', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.close());

  it('every /api/ route comes from the table', () => {
    const api = seen.filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && r.method !== 'HEAD');
    expect(api.length).toBeGreaterThan(0);
    expect(api.filter((r) => !r.fromTable).map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it('every table endpoint is served, once', () => {
    const served = seen.filter((r) => r.fromTable && r.method !== 'HEAD').map((r) => `${r.method} ${r.url}`);
    const declared = [...allEndpoints().values()].map((def) => `${def.method} ${def.path}`);
    expect(served.sort()).toEqual(declared.sort());
  });
});
