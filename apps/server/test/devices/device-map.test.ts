import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceStates, type DevicePositions } from '@mowerline/contract';
import type { TestServer } from '../harness.ts';
import { connectDevice, createModel, EN, operatorToken, registerSn, startDeviceServer, uniqueSn, waitFor } from './fixtures.ts';

const stateIndex = (s: (typeof deviceStates)[number]) => deviceStates.indexOf(s);

describe('device map positions', () => {
  let server: TestServer;
  let admin: string;
  let operator: string;
  let modelId: number;
  beforeAll(async () => {
    server = await startDeviceServer();
    admin = await server.login();
    operator = await operatorToken(server, admin);
    modelId = await createModel(server, admin);
  });
  afterAll(() => server.close());

  const positions = async (query = '', token = operator) => {
    const res = await server.api<DevicePositions>('GET', `/api/admin/device/positions${query}`, { token, lang: EN });
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    return res.body.data;
  };
  const entry = (p: DevicePositions, sn: string) => {
    const i = p.sn.indexOf(sn);
    return i < 0 ? undefined : { lat: p.lat[i], lng: p.lng[i], state: p.state[i] };
  };

  it('lists positioned devices with their state as columns, and deltas after `next` (a mower going offline)', async () => {
    const moving = uniqueSn('MAP');
    const silent = uniqueSn('MAP');
    const device = await connectDevice(server, moving, await registerSn(server, admin, moving, modelId));
    await registerSn(server, admin, silent, modelId);
    await device.telemetry({ state: 'mowing', position: { lat: 59.3293123, lng: 18.0686456, heading: 10 } });

    const full = await waitFor(async () => {
      const p = await positions();
      return entry(p, moving) ? p : undefined;
    }, 10_000, 'the position');
    expect(full.full).toBe(true);
    expect(entry(full, moving)).toEqual({ lat: 59.32931, lng: 18.06865, state: stateIndex('mowing') });
    // Never reported a position: not on the map.
    expect(entry(full, silent)).toBeUndefined();
    expect(full.sn.length).toBe(full.lat.length);
    expect(full.sn.length).toBe(full.state.length);

    await device.end();
    const delta = await waitFor(async () => {
      const p = await positions(`?since=${encodeURIComponent(full.next)}`);
      return entry(p, moving)?.state === stateIndex('offline') ? p : undefined;
    }, 10_000, 'offline in the delta');
    expect(delta.full).toBe(false);
    expect(new Date(delta.next).getTime()).toBeGreaterThanOrEqual(new Date(full.next).getTime());

    // A window after every change holds nothing.
    const later = new Date(Date.now() + 60_000).toISOString();
    expect((await positions(`?since=${encodeURIComponent(later)}`)).sn).toEqual([]);
  });

  it('needs sign-in and a valid `since`', async () => {
    expect((await server.api('GET', '/api/admin/device/positions')).status).toBe(401);
    const bad = await server.api('GET', '/api/admin/device/positions?since=yesterday', { token: operator, lang: EN });
    expect(bad.status).toBe(400);
    expect(bad.body.code).not.toBe(0);
    const unknown = await server.api('GET', '/api/admin/device/positions?bbox=1', { token: operator, lang: EN });
    expect(unknown.status).toBe(400);
  });
});
