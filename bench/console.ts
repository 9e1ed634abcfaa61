/**
 * The console, measured in Debian's Chromium on the production build:
 * - JavaScript and CSS per route: every .js/.css file a cold load of the route fetched (lazy chunks
 *   and workers included), gzipped at level 6 as a web server would send it;
 * - cold loads of the sign-in page and the device list (Navigation Timing, LCP);
 * - the device map with 100,000 devices: time to the first clusters, and frames per second while
 *   a scripted mouse drag pans the map (requestAnimationFrame counted in the page), against the
 *   same drags over the same map page with no devices (base map only: the floor of the renderer)
 *   and over an empty page (the ceiling of the browser).
 *
 *   BENCH_CONSOLE_DIST=<dir>   use an existing build instead of building one
 *   BENCH_MAP_DEVICES=100000   BENCH_COLD_RUNS=5
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { flattenRoutes } from '@mowerline/contract';
import { places } from '../apps/fleet-sim/src/places.ts';
import { launchBrowser, startConsoleServer } from '../apps/console/e2e/harness.ts';
import type { TestServer } from '../apps/server/test/harness.ts';
import { kib, log, median, ms, num, ratio, table, main, type BenchResult } from './lib/stats.ts';

const MAP_DEVICES = Number(process.env.BENCH_MAP_DEVICES ?? 100_000);
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 5);
const root = path.resolve(import.meta.dirname, '..');

/** A production build of our own, so another helper rebuilding apps/console/dist cannot disturb the run. */
function build(): { dir: string; cleanup(): void } {
  if (process.env.BENCH_CONSOLE_DIST) return { dir: path.resolve(process.env.BENCH_CONSOLE_DIST), cleanup: () => {} };
  const dir = mkdtempSync(path.join(tmpdir(), 'mowerline-console-'));
  log('console: building the production bundle');
  execFileSync('npm', ['run', 'build', '-w', '@mowerline/console', '--', '--outDir', dir, '--emptyOutDir'], { cwd: root, stdio: 'ignore' });
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** 100k devices with a position near the simulator's cities, a quarter of them offline. */
async function seedMap(server: TestServer) {
  const db = server.ctx.db;
  const cities = places.map((p) => `(${p.lat}, ${p.lng})`).join(', ');
  await db.execute(sql`insert into product_models (id, code, name) values (9101, 'MAP-S1', 'Map S1')`);
  await db.execute(
    sql.raw(`insert into devices (sn, model_id, secret_hash, secret_salt, region)
             select 'M' || lpad(g::text, 7, '0'), 9101, 'unused', 'unused', 'europe' from generate_series(1, ${MAP_DEVICES}) g`),
  );
  await db.execute(
    sql.raw(`with city(i, lat, lng) as (select row_number() over () - 1, lat, lng from (values ${cities}) v(lat, lng))
             insert into device_state (sn, online, last_seen_at, state, activity, battery, firmware, lat, lng, heading)
             select 'M' || lpad(g::text, 7, '0'), g % 4 <> 0, now(),
                    (array['idle','mowing','returning','charging','paused','error','updating'])[g % 7 + 1], 'unknown', g % 101, '2.0.3',
                    city.lat + ((g::bigint * 7919) % 1000 - 500) / 4000.0, city.lng + ((g::bigint * 104729) % 1000 - 500) / 2500.0, 0
             from generate_series(1, ${MAP_DEVICES}) g join city on city.i = g % ${places.length}`),
  );
}

/** A fresh context (cold HTTP cache, empty storage), signed in when a token is given. */
async function coldPage(browser: Browser, token?: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript((t) => {
    localStorage.setItem('locale', 'en-US');
    if (t) localStorage.setItem('token', t);
    // LCP entries are only kept for observers registered early; collect them from the start.
    const w = window as unknown as { __lcp: number };
    w.__lcp = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__lcp = e.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  }, token);
  return context.newPage();
}

/** When `selector` first matched (and shows `text`), in ms since navigation start, detected in the page on each frame. */
async function shownAt(page: Page, selector: string, text = '', timeout = 60_000): Promise<number> {
  const handle = await page.waitForFunction(([sel, t]) => (document.querySelector(sel)?.textContent?.includes(t) ? performance.now() : false), [selector, text] as const, {
    polling: 'raf',
    timeout,
  });
  return (await handle.jsonValue()) as number;
}

/** JS and CSS bytes (raw and gzipped) a cold load of `hash` fetched. */
async function routeWeight(browser: Browser, server: TestServer, hash: string, token?: string) {
  const page = await coldPage(browser, token);
  const files = new Map<string, Buffer>();
  page.on('response', (res) => {
    const url = res.url();
    if (!/\.(m?js|css)(\?|$)/.test(url) || !url.startsWith(server.url)) return;
    void res.body().then(
      (b) => files.set(url, b),
      () => {},
    );
  });
  await page.goto(`${server.url}/#${hash}`);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  await page.context().close();
  const sum = (re: RegExp) => {
    let raw = 0;
    let gz = 0;
    for (const [url, b] of files) {
      if (!re.test(url)) continue;
      raw += b.length;
      gz += gzipSync(b, { level: 6 }).length;
    }
    return { raw, gz };
  };
  return { js: sum(/\.m?js(\?|$)/), css: sum(/\.css(\?|$)/), files: files.size };
}

async function coldLoad(browser: Browser, server: TestServer, hash: string, ready: [selector: string, text: string], token?: string) {
  const runs: Array<{ ttfb: number; dcl: number; load: number; lcp: number; ready: number }> = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const page = await coldPage(browser, token);
    await page.goto(`${server.url}/#${hash}`);
    const readyAt = await shownAt(page, ...ready);
    await page.waitForLoadState('networkidle');
    const t = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return { ttfb: nav.responseStart, dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd, lcp: (window as unknown as { __lcp: number }).__lcp };
    });
    runs.push({ ...t, ready: readyAt });
    await page.context().close();
  }
  const m = (k: keyof (typeof runs)[number]) => median(runs.map((r) => r[k]));
  return { ttfb: m('ttfb'), dcl: m('dcl'), load: m('load'), lcp: m('lcp'), ready: m('ready') };
}

/** Frames per second during three scripted mouse drags over `box`, counted with requestAnimationFrame. */
async function drags(page: Page, box: { x: number; y: number; width: number; height: number }) {
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const pans: Array<{ fps: number; p95: number; worst: number }> = [];
  for (const [dx, dy] of [
    [-400, 0],
    [400, 150],
    [0, -250],
  ] as const) {
    // A string: tsx would wrap a named function in a helper the page does not have.
    await page.evaluate(`(() => {
      window.__frames = [];
      window.__counting = true;
      const loop = (t) => { window.__frames.push(t); if (window.__counting) requestAnimationFrame(loop); };
      requestAnimationFrame(loop);
    })()`);
    // 2.5 s of dragging with trusted mouse moves, the pointer where a steady hand would be by now.
    // (Chromium acknowledges input once per frame, so a slow page gets fewer, larger moves.)
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    const started = Date.now();
    for (let f = 0; f < 1; f = (Date.now() - started) / 2500) {
      await page.mouse.move(cx + dx * f, cy + dy * f);
      await page.waitForTimeout(16);
    }
    await page.mouse.up();
    const frames = (await page.evaluate('(() => { window.__counting = false; return window.__frames; })()')) as number[];
    const gaps = frames.slice(1).map((t, i) => t - frames[i]!);
    const seconds = (frames[frames.length - 1]! - frames[0]!) / 1000;
    pans.push({ fps: (frames.length - 1) / seconds, p95: [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length * 0.95)] ?? 0, worst: Math.max(...gaps) });
    await page.waitForTimeout(800);
  }
  return pans;
}

/** The ceiling: the same drags over an empty page, i.e. what this headless browser on this machine can show at all. */
async function blankFps(browser: Browser) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.setContent('<body style="margin:0"><div style="width:100vw;height:100vh"></div></body>');
  const pans = await drags(page, { x: 0, y: 0, width: 1440, height: 900 });
  await context.close();
  return median(pans.map((p) => p.fps));
}

/**
 * First clusters on the map (median of COLD_RUNS cold loads: one load is one sample of a noisy
 * machine), then frames per second during three scripted drags on the last of them.
 */
async function mapRun(browser: Browser, server: TestServer, token: string) {
  const firsts: number[] = [];
  for (let i = 0; ; i++) {
    const page = await coldPage(browser, token);
    await page.goto(`${server.url}/#/device/device-map`);
    firsts.push(await shownAt(page, '.fleet-cluster', '', 120_000));
    if (i < COLD_RUNS - 1) {
      await page.context().close();
      continue;
    }
    const clusters = await page.locator('.fleet-cluster').count();
    await page.waitForTimeout(1000);
    const box = (await page.locator('[data-testid=fleet-map]').boundingBox())!;
    const pans = await drags(page, box);
    await page.context().close();
    return { firstRender: median(firsts), firstRenders: firsts, clusters, pans };
  }
}

/**
 * The floor: the same map page and drags with no devices (the positions answer is an empty
 * snapshot), i.e. what maplibre's base map alone costs in this renderer. Our fleet layer is the
 * difference between this and `mapRun`.
 */
async function baseMapFps(browser: Browser, server: TestServer, token: string) {
  const page = await coldPage(browser, token);
  await page.route('**/api/admin/device/positions**', (route) =>
    route.fulfill({
      contentType: 'application/json',
      body: JSON.stringify({ code: 0, msg: 'OK', status: 'ok', data: { next: new Date().toISOString(), full: true, sn: [], lat: [], lng: [], state: [] } }),
    }),
  );
  await page.goto(`${server.url}/#/device/device-map`);
  await shownAt(page, '.device-map-empty', '', 120_000);
  // The "no devices" note sits where the drags start: let the mouse through to the map.
  await page.addStyleTag({ content: '.device-map-empty { pointer-events: none; }' });
  // The base map's first frame (countries drawn) before the drags, as in `mapRun`.
  await page.waitForTimeout(2000);
  const box = (await page.locator('[data-testid=fleet-map]').boundingBox())!;
  const pans = await drags(page, box);
  await page.context().close();
  return median(pans.map((p) => p.fps));
}

export async function run(): Promise<BenchResult> {
  const dist = build();
  const server = await startConsoleServer({ consoleDir: dist.dir });
  const browser = await launchBrowser();
  try {
    const token = await server.login();
    log(`console: seeding ${num(MAP_DEVICES, 0)} positioned devices`);
    await seedMap(server);

    log('console: JS/CSS per route');
    const routes = [{ name: 'sign-in', hash: '/login', token: undefined as string | undefined }, ...flattenRoutes().map((r) => ({ name: r.name, hash: r.fullPath, token }))];
    const weights: Array<Array<string | number>> = [];
    let signInJs = 0;
    for (const r of routes) {
      const w = await routeWeight(browser, server, r.hash, r.token);
      if (r.name === 'sign-in') signInJs = w.js.gz;
      weights.push([`${r.name} (\`#${r.hash}\`)`, kib(w.js.gz), kib(w.js.raw), kib(w.css.gz), kib(w.css.raw), w.files]);
    }

    log('console: cold loads');
    const signIn = await coldLoad(browser, server, '/login', ['input[name=username]', '']);
    // The first device of the SN order in the table's body.
    const list = await coldLoad(browser, server, '/device/list', ['.arco-table tbody', 'M0000001'], token);
    log('console: device map');
    const map = await mapRun(browser, server, token);
    const fps = median(map.pans.map((p) => p.fps));
    const floor = await baseMapFps(browser, server, token);
    const ceiling = await blankFps(browser);

    const markdown = [
      'Production build (`vite build`), served by the platform from PGlite, Chromium headless with `--disable-gpu` (WebGL runs in SwiftShader, on the CPU).',
      '',
      `JavaScript and CSS fetched by a cold load of each route (lazy chunks and workers included), gzip level 6. Routes other than sign-in are loaded signed in, so they include the layout shell.`,
      '',
      table(['route', 'JS gzip', 'JS raw', 'CSS gzip', 'CSS raw', 'files'], weights),
      '',
      `Cold loads (fresh browser context each time, median of ${COLD_RUNS}); times from navigation start. "Content" is when the sign-in form / the first device row appeared.`,
      '',
      table(
        ['page', 'TTFB', 'DOMContentLoaded', 'load', 'LCP', 'content'],
        [
          ['sign-in', ms(signIn.ttfb), ms(signIn.dcl), ms(signIn.load), ms(signIn.lcp), ms(signIn.ready)],
          [`device list (${num(MAP_DEVICES, 0)} devices)`, ms(list.ttfb), ms(list.dcl), ms(list.load), ms(list.lcp), ms(list.ready)],
        ],
      ),
      '',
      `Device map with ${num(MAP_DEVICES, 0)} positioned devices: first clusters ${ms(map.firstRender)} after navigation start (median of ${COLD_RUNS} cold loads: ${map.firstRenders.map(ms).join(', ')}; cold: the shell, the page, the positions snapshot clustered in the worker and the map chunk, the last two side by side; the world outline loads on its own and holds nothing up); ${map.clusters} clusters drawn. ` +
        `Panning: three mouse drags of 2.5 s each; frames counted with requestAnimationFrame (median ${num(fps, 1)} fps). ` +
        `Baselines in the same run: the same drags over the same map page with no devices (base map only, the floor of maplibre in this renderer) reach ${num(floor, 1)} fps, ` +
        `so with the fleet the map pans at ${ratio(fps, floor)} the base map's frame rate; over an empty page ${num(ceiling, 1)} fps (the ceiling of this headless browser on this machine).`,
      '',
      table(
        ['drag', 'fps', 'p95 frame', 'worst frame', '÷ base map (no devices)'],
        map.pans.map((p, i) => [i + 1, num(p.fps, 1), ms(p.p95), ms(p.worst), ratio(p.fps, floor)]),
      ),
    ].join('\n');
    return {
      name: 'Console',
      markdown,
      headline: [
        { what: 'sign-in page JavaScript (gzip)', value: kib(signInJs), target: '≤ 200 KiB', met: signInJs <= 200 * 1024 },
        { what: `map first render, ${num(MAP_DEVICES, 0)} devices`, value: ms(map.firstRender), target: '< 2,000 ms', met: map.firstRender < 2000 },
        {
          what: 'map panning',
          value: `${num(fps, 1)} fps = ${ratio(fps, floor)} the base map alone (${num(floor, 1)} fps, no devices; empty page ${num(ceiling, 1)})`,
          target: '≥ 30 fps',
          met: fps >= 30,
        },
      ],
    };
  } finally {
    await browser.cleanup();
    await server.close();
    dist.cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main(run);
