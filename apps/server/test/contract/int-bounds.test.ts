import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errors } from '@mowerline/contract';
import type { TestServer } from '../harness.ts';
import { startStaffServer } from '../staff/fixtures.ts';

/**
 * Issue 12, item 7: integers past 2^31 on ids and filters (`modelId`, `artifactId`, `id`,
 * `campaignId`) reached PostgreSQL's int4 columns and failed there as a 500. Every id in the
 * schemas is bounded now: a 400 before the database is asked.
 */
describe('ids beyond int4', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startStaffServer();
    token = await server.login();
  });
  afterAll(() => server?.close());

  const big = 2 ** 31;
  const cases: [string, string, unknown?][] = [
    ['GET', `/api/admin/product/sn?modelId=${big}`],
    ['GET', `/api/admin/device?modelId=${big}`],
    ['GET', `/api/admin/product/firmware?modelId=${big}`],
    ['GET', `/api/admin/device/upgrade-log?campaignId=${big}`],
    ['GET', `/api/admin/product/firmware/${big}`],
    ['GET', `/api/admin/ota/campaign/${big}`],
    ['PUT', `/api/admin/product/model/${big}`, { name: 'x' }],
    ['POST', '/api/admin/product/sn', { sn: 'MW-BIG-0001', modelId: big }],
    ['POST', '/api/admin/ota/campaign', { name: 'big', artifactId: big, target: { kind: 'all' } }],
    ['PUT', '/api/admin/user', { id: big, name: 'x' }],
  ];
  for (const [method, path, body] of cases) {
    it(`${method} ${path}`, async () => {
      const res = await server.api(method, path, { token, body });
      expect([res.status, res.body.code], JSON.stringify(res.body)).toEqual([400, errors.VALIDATION.code]);
    });
  }

  it('the CSV export with such a filter is refused before its header, not cut short', async () => {
    const res = await fetch(`${server.url}/api/admin/device/export?modelId=${big}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(400);
  });
});
