import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { sameString } from '../gateway/device-credentials.ts';
import type { FeatureModule } from '../module.ts';
import { registerCollectors } from './collectors.ts';
import { UNMATCHED_ROUTE, type Metrics } from './metrics.ts';

export const METRICS_PATH = '/metrics';

/** Does this Authorization header carry the metrics token? Always true while none is configured. */
export function tokenAccepted(token: string | undefined, authorization: string | undefined): boolean {
  if (!token) return true;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return !!match && sameString(match[1]!, token);
}

const UNAUTHORIZED = { status: 401, headers: { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer realm="metrics"' }, body: 'a valid METRICS_TOKEN bearer token is required\n' };

/**
 * Every request's duration by route template and status, on the app's root (so the 404s of unknown
 * URLs count too, as one `unmatched` route). `routeOptions.url` is the declared path
 * (`/api/admin/device/:sn`), never the request's URL: the labels stay bounded.
 */
export function installHttpMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeHttp(request.method, request.routeOptions.url ?? UNMATCHED_ROUTE, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

/**
 * Prometheus metrics at `GET /metrics` (docs/monitoring.md): on their own listener when
 * METRICS_PORT is set, else on the main port when METRICS_TOKEN is set, else not at all (404). The
 * token, when set, is required on either. Not in the contract's endpoint table: the answer is the
 * Prometheus text format, not the JSON envelope, and the path is outside `/api/`.
 */
export function metricsModule(ctx: AppContext): FeatureModule {
  const { config, metrics } = ctx;
  registerCollectors(metrics, { db: ctx.db, gateway: ctx.gateway, log: ctx.log });
  let listener: Server | undefined;

  const scrape = async (): Promise<{ type: string; body: string }> => ({ type: metrics.registry.contentType, body: await metrics.registry.metrics() });

  return {
    name: 'metrics',
    routes(scope) {
      if (config.metricsPort !== undefined || !config.metricsToken) return;
      scope.get(METRICS_PATH, async (request, reply) => {
        if (!tokenAccepted(config.metricsToken, request.headers.authorization)) {
          return reply.status(UNAUTHORIZED.status).headers(UNAUTHORIZED.headers).send(UNAUTHORIZED.body);
        }
        const { type, body } = await scrape();
        return reply.type(type).header('cache-control', 'no-store').send(body);
      });
    },
    async start() {
      if (config.metricsPort === undefined) return;
      const server = createServer((req, res) => void answer(req, res));
      const answer = async (req: IncomingMessage, res: ServerResponse) => {
        const path = (req.url ?? '').split('?')[0];
        if (path !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) return send(res, 404, { 'content-type': 'text/plain; charset=utf-8' }, 'not found\n');
        if (!tokenAccepted(config.metricsToken, req.headers.authorization)) return send(res, UNAUTHORIZED.status, UNAUTHORIZED.headers, UNAUTHORIZED.body);
        try {
          const { type, body } = await scrape();
          send(res, 200, { 'content-type': type, 'cache-control': 'no-store' }, req.method === 'HEAD' ? '' : body);
        } catch (err) {
          ctx.log.error({ err }, 'metrics: scrape failed');
          send(res, 500, { 'content-type': 'text/plain; charset=utf-8' }, 'scrape failed\n');
        }
      };
      await new Promise<void>((resolve, reject) => {
        server.once('error', (err: NodeJS.ErrnoException) =>
          reject(err.code === 'EADDRINUSE' ? new Error(`METRICS_PORT ${config.metricsPort} is already in use: stop what holds it or choose another port.`, { cause: err }) : err),
        );
        server.listen(config.metricsPort, config.host, () => resolve());
      });
      listener = server;
      metrics.listenerPort = (server.address() as AddressInfo).port;
      ctx.log.info({ port: metrics.listenerPort }, 'metrics listener started');
    },
    async stop() {
      const server = listener;
      listener = undefined;
      metrics.listenerPort = null;
      if (!server) return;
      // A scraper's keep-alive connection must not hold the shutdown open.
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string) {
  res.writeHead(status, headers);
  res.end(body);
}
