import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness.ts';

describe('platform', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('reports health with the database kind', async () => {
    const res = await server.api<{ status: string; database: { kind: string; ok: boolean } }>('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 0, status: 'ok', data: { status: 'ok', database: { ok: true } } });
    expect(res.body.data.database.kind).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
  });

  it('answers 503 DATABASE_UNAVAILABLE with the health report while the database does not answer', async () => {
    const { database } = server.ctx;
    const ping = database.ping;
    database.ping = async () => false;
    try {
      const res = await server.api('GET', '/api/health', { lang: 'en-US' });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 50003, msg: 'The database is unavailable', status: 'fail', data: { status: 'degraded', database: { ok: false } } });
    } finally {
      database.ping = ping;
    }
  });

  it('answers unknown API paths with a not-found envelope in the caller language', async () => {
    const en = await server.api('GET', '/api/nope', { lang: 'en-US,en;q=0.9' });
    expect(en.status).toBe(404);
    expect(en.body).toEqual({ code: 40004, msg: 'Not found', data: null, status: 'fail' });
    const zh = await server.api('GET', '/api/nope');
    expect(zh.body.msg).toBe('资源不存在');
  });

  it('serves the OpenAPI document', async () => {
    const res = await fetch(`${server.url}/api/docs/json`);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/health']).toBeDefined();
  });

  it('compresses large responses for clients that accept it', async () => {
    const res = await fetch(`${server.url}/api/docs/json`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(((await res.json()) as { openapi: string }).openapi).toMatch(/^3\./);
  });

  it('hands the console its runtime configuration: three regions and a version', async () => {
    const res = await server.api<{ servers: Array<{ name: string; host: string }>; version: string }>('GET', '/api/config');
    expect(res.body.data.servers.map((s) => s.name)).toEqual(['Asia test', 'Asia production', 'Europe production']);
    expect(res.body.data.version).toBeTruthy();
  });
});
