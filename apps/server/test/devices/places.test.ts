import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MapPlaces } from '@mowerline/contract';
import { startServer, type TestServer } from '../harness.ts';

/** Issue 17 §8: place names for the offline base map, from the gazetteer, most populous first. */
describe('map place names', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer();
    token = await server.login();
  });
  afterAll(() => server.close());

  const places = (q: string) => server.api<MapPlaces>('GET', `/api/admin/device/places?${q}`, { token });

  it('answers the most populous places inside the view, largest first', async () => {
    const sweden = await places('west=10&south=55&east=20&north=60&limit=3');
    expect(sweden.body.code).toBe(0);
    expect(sweden.body.data.list.map((p) => p.name)).toEqual(['Stockholm', 'Copenhagen', 'Oslo']);
    const populations = sweden.body.data.list.map((p) => p.population);
    expect([...populations].sort((a, b) => b - a)).toEqual(populations);
    // A garden-sized view still has the names of the places in it.
    const garden = await places('west=18.06&south=59.32&east=18.08&north=59.34');
    expect(garden.body.data.list.length).toBeGreaterThan(0);
  });

  it('wraps a view across ±180° and refuses an impossible box', async () => {
    const fiji = await places('west=177&south=-19&east=-178&north=-16&limit=5');
    expect(fiji.body.data.list.length).toBeGreaterThan(0);
    expect((await places('west=0&south=-100&east=10&north=10')).body.code).toBe(40000);
    expect((await server.api('GET', '/api/admin/device/places?west=0&south=0&east=1&north=1')).status).toBe(401);
  });
});
