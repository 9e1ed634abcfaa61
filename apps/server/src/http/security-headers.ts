import type { FastifyInstance } from 'fastify';
import fastifyHelmet from '@fastify/helmet';
import type { MapBase } from '@mowerline/contract';

/**
 * The Content-Security-Policy the console runs under, checked in the browser suite (every page,
 * zero violations: apps/console/e2e/security.e2e.ts). Scripts and workers only from the console's
 * own files (maplibre's and the captcha's workers are built assets; blob: for libraries that make
 * workers from a string), inline styles because Arco, ECharts and xterm set them from script,
 * images also as data:/blob: (avatars, map sprites, charts), and the API and MQTT over WebSocket
 * on the same host. No plugins, no framing, no <base> or form posts elsewhere.
 */
export const contentSecurityPolicy = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'worker-src': ["'self'", 'blob:'],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'", 'ws:', 'wss:'],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** The origin of a configured URL; a tile template's `{z}` placeholders never reach the host part. */
function originOf(url: string): string[] {
  if (!url) return [];
  try {
    return [new URL(url.replace(/\{[a-z]\}/g, '0')).origin];
  } catch {
    return [];
  }
}

/**
 * The CSP with the online base map's origins (tiles are fetched, then decoded as images; a style
 * URL's own origin serves its tiles, glyphs and sprites). Nothing else is allowed out.
 */
export function directivesFor(map: MapBase): typeof contentSecurityPolicy {
  const origins = [...new Set([...originOf(map.tileUrl), ...originOf(map.styleUrl)])];
  if (origins.length === 0) return contentSecurityPolicy;
  return {
    ...contentSecurityPolicy,
    'img-src': [...contentSecurityPolicy['img-src'], ...origins],
    'connect-src': [...contentSecurityPolicy['connect-src'], ...origins],
  };
}

/**
 * Security headers on every answer (@fastify/helmet): the CSP above, X-Frame-Options DENY,
 * X-Content-Type-Options nosniff, Referrer-Policy no-referrer (reset links carry their token),
 * and helmet's other defaults. `upgrade-insecure-requests` is left out: a plain-HTTP install
 * (`npm start` on a LAN) must keep loading its own assets.
 */
export async function registerSecurityHeaders(app: FastifyInstance, map: MapBase = { tileUrl: '', styleUrl: '', attribution: '' }): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: directivesFor(map) },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // The firmware download URL is fetched by devices and shown by the console on the same host.
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
}
