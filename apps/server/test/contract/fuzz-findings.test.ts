import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errors } from '@mowerline/contract';
import { startServer, type TestServer } from '../harness.ts';

/** Defects the schema-driven fuzz suite found, each kept as a plain reproduction. */
describe('fuzz findings', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer();
    token = await server.login();
  });
  afterAll(() => server?.close());

  it('a product-model update with nothing to change: 400, not a 500 from an empty UPDATE', async () => {
    const created = await server.api<{ id: number }>('POST', '/api/admin/product/model', { token, body: { code: 'FUZZ-EMPTY', name: 'Empty' } });
    const res = await server.api('PUT', `/api/admin/product/model/${created.body.data.id}`, { token, body: {} });
    expect([res.status, res.body.code]).toEqual([400, errors.VALIDATION.code]);
  });
});
