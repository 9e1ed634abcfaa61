import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../server/test/harness.ts';
import { launchBrowser } from './harness.ts';
import { openSignedIn, type Opened } from './pages.helpers.ts';
import { model, mower, startDeviceConsoleServer, type Mower } from './devices.helpers.ts';

describe('device map against the real server and real mowers', () => {
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let mowers: Mower[] = [];
  let session: Opened;

  beforeAll(async () => {
    server = await startDeviceConsoleServer();
    browser = await launchBrowser();
    const admin = await server.login();
    const modelId = await model(server, admin, 'MLX1');
    // Three mowers in neighbouring Stockholm gardens (one cluster at world zoom) and one in Shanghai.
    const garden = (i: number) => ({ lat: 59.3293 + i * 0.0004, lng: 18.0686 + i * 0.0005, heading: 0 });
    mowers = [
      await mower(server, admin, modelId, 'MAP-STO-0001', { state: 'mowing', activity: 'mowing', position: garden(0) }),
      await mower(server, admin, modelId, 'MAP-STO-0002', { state: 'error', activity: 'stopped_in_garden', errorCode: 'STUCK', position: garden(1) }),
      await mower(server, admin, modelId, 'MAP-STO-0003', { state: 'charging', activity: 'charging', position: garden(2) }),
      await mower(server, admin, modelId, 'MAP-SHA-0001', { state: 'idle', activity: 'parked_in_cs', position: { lat: 31.2304, lng: 121.4737, heading: 0 } }),
    ];
    session = await openSignedIn(browser, server, '/device/device-map');
  });

  afterAll(async () => {
    for (const m of mowers) if (m.client.connected) await m.end();
    await session?.context.close();
    await browser?.cleanup();
    await server?.close();
  });

  const marker = (sn: string) => session.page.locator(`[data-testid=fleet-device][data-sn=${sn}]`);

  it('draws the fleet as clusters over the offline world map, with per-state counts', async () => {
    const { page } = session;
    await page.locator('[data-testid=map-legend]').getByText('4 devices on the map').waitFor();
    expect(await page.locator('[data-testid=map-legend] [data-state=error]').innerText()).toBe('1');
    const cluster = page.locator('[data-testid=fleet-cluster][data-count="3"]');
    await cluster.waitFor();
    // One of the three is in error: the cluster carries an error badge.
    expect(await cluster.locator('.fleet-cluster-errors').innerText()).toBe('1');
    await marker('MAP-SHA-0001').waitFor();
    expect(await marker('MAP-SHA-0001').getAttribute('data-state')).toBe('idle');
    expect(await page.locator('.fleet-map canvas').count()).toBe(1);
  });

  it('zooms into a cluster and opens a device', async () => {
    const { page } = session;
    // Each click zooms to where the cluster splits; neighbouring gardens may take two steps.
    await page.locator('[data-testid=fleet-cluster][data-count="3"]').click();
    for (let step = 0; step < 4 && !(await marker('MAP-STO-0002').isVisible()); step++) {
      await page.waitForTimeout(1000);
      const cluster = page.locator('[data-testid=fleet-cluster]').first();
      if (await cluster.isVisible()) await cluster.click().catch(() => {});
    }
    await marker('MAP-STO-0002').waitFor();
    expect(await marker('MAP-STO-0002').getAttribute('data-state')).toBe('error');
    // Zoomed in to the gardens, the offline base still names the place.
    await page.locator('[data-testid=map-place]', { hasText: 'Stockholm' }).first().waitFor();
    await marker('MAP-STO-0002').click();
    const drawer = page.locator('[data-testid=device-detail]');
    await drawer.waitFor();
    expect(await page.locator('.arco-drawer-header').innerText()).toMatch(/MAP-STO-0002[\s\S]*Error/);
    expect(await drawer.innerText()).toContain('STUCK');
    await page.locator('.arco-drawer-close-icon').click();
    await drawer.waitFor({ state: 'detached' });
  });

  it('follows live state changes and filters by state', async () => {
    const { page } = session;
    await mowers[0]!.end();
    await expect.poll(() => marker('MAP-STO-0001').getAttribute('data-state'), { timeout: 15_000 }).toBe('offline');

    await page.locator('[data-testid=map-legend] label.arco-checkbox').filter({ hasText: 'Error' }).click();
    await marker('MAP-STO-0002').waitFor({ state: 'detached' });
    expect(await marker('MAP-STO-0003').count()).toBe(1);
    expect(session.errors).toEqual([]);
  });

  it('draws the fleet again after a round trip through another tab', async () => {
    const { page } = session;
    await page.goto(`${server.url}/#/device/list`);
    await page.locator('.arco-table tbody tr.arco-table-tr:visible').filter({ hasText: 'MAP-SHA-0001' }).waitFor();
    await page.goto(`${server.url}/#/device/device-map`);
    await page.locator('[data-testid=map-legend]:visible').getByText('4 devices on the map').waitFor();
    await page.locator('[data-testid=fleet-cluster]:visible, [data-testid=fleet-device]:visible').first().waitFor();
    expect(session.errors).toEqual([]);
  });

  it('names the nearest place when a garden-sized view holds none', async () => {
    const { page } = session;
    const marker0 = page.locator('[data-testid=fleet-device]:visible, [data-testid=fleet-cluster]:visible').first();
    await marker0.waitFor();
    const box = (await marker0.boundingBox())!;
    // Wheel in on the gardens (the point under the mouse stays put) until no place is in view.
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const near = page.locator('[data-testid=map-near-place]:visible');
    for (let i = 0; i < 24 && !(await near.isVisible()); i++) {
      await page.mouse.wheel(0, -400);
      await page.waitForTimeout(500);
    }
    await near.waitFor();
    expect(await page.locator('[data-testid=map-place]').count()).toBe(0);
    expect(await near.innerText()).toMatch(/^Near .+ · [\d.]+ km$/);
    expect(session.errors).toEqual([]);
  });
});
