import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../server/test/harness.ts';
import { launchBrowser, startConsoleServer } from './harness.ts';
import { openSignedIn } from './pages.helpers.ts';

/**
 * Issue 17 §8: an online base map from the runtime configuration (MAP_TILE_URL + MAP_ATTRIBUTION),
 * here a tile server this test starts on loopback. The map asks it for tiles under the CSP, draws
 * them, and credits them.
 */
describe('device map with an online base map', () => {
  let tiles: Server;
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  const requested: string[] = [];

  beforeAll(async () => {
    const png = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#7FBF7F' } }).png().toBuffer();
    tiles = createServer((req, res) => {
      requested.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' }).end(png);
    });
    await new Promise<void>((resolve) => tiles.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(tiles.address() as AddressInfo).port}`;
    server = await startConsoleServer({ map: { tileUrl: `${origin}/tiles/{z}/{x}/{y}.png`, styleUrl: '', attribution: '© Loopback Tiles contributors' } });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.cleanup();
    await server?.close();
    await new Promise((resolve) => tiles?.close(resolve));
  });

  it('requests XYZ tiles from the configured server and shows its attribution, with no CSP violation', async () => {
    const { page, context, errors } = await openSignedIn(browser, server, '/device/device-map');
    try {
      await page.locator('.maplibregl-canvas').waitFor();
      await page.locator('.maplibregl-ctrl-attrib').getByText('© Loopback Tiles contributors').waitFor();
      await expect.poll(() => requested.filter((url) => /^\/tiles\/\d+\/\d+\/\d+\.png$/.test(url)).length, { timeout: 15_000 }).toBeGreaterThan(0);
      expect(errors.filter((e) => /Content.Security.Policy/i.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('answers the runtime configuration and a CSP naming the tile origin', async () => {
    const res = await fetch(`${server.url}/api/config`);
    const body = (await res.json()) as { data: { map: { tileUrl: string; attribution: string } } };
    expect(body.data.map.attribution).toBe('© Loopback Tiles contributors');
    const origin = new URL(body.data.map.tileUrl.replace(/\{[a-z]\}/g, '0')).origin;
    expect(res.headers.get('content-security-policy')).toMatch(new RegExp(`connect-src [^;]*${origin.replace(/[.:/]/g, '\\$&')}`));
  });
});
