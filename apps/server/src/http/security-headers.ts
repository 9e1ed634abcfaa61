import type { FastifyInstance } from 'fastify';
import fastifyHelmet from '@fastify/helmet';

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

/**
 * Security headers on every answer (@fastify/helmet): the CSP above, X-Frame-Options DENY,
 * X-Content-Type-Options nosniff, Referrer-Policy no-referrer (reset links carry their token),
 * and helmet's other defaults. `upgrade-insecure-requests` is left out: a plain-HTTP install
 * (`npm start` on a LAN) must keep loading its own assets.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // The firmware download URL is fetched by devices and shown by the console on the same host.
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
}
