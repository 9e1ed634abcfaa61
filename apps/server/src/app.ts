import { existsSync } from 'node:fs';
import type { Socket } from 'node:net';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import fastifyCompress from '@fastify/compress';
import fastifyCors from '@fastify/cors';
import fastifyJwt from '@fastify/jwt';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyWebsocket from '@fastify/websocket';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import type { Database } from './db/client.ts';
import { createMailer } from './email/mailer.ts';
import { createGuard, createPrincipalReader, type SessionPrincipal } from './http/auth.ts';
import { PrincipalCache } from './auth/principal-cache.ts';
import { documentMultipart, requireEndpointTable } from './http/endpoints.ts';
import { validateInput } from './http/validation.ts';
import { installJsonBodyParser } from './http/json-body.ts';
import { clientError } from './http/client-error.ts';
import { createSerializerCompiler } from './http/serializer.ts';
import { accountRateLimit } from './auth/rate-limit.ts';
import { rateLimitKey, sharedRateLimitStore } from './rate-limit/shared-store.ts';
import { rateLimitModule } from './rate-limit/rate-limit.module.ts';
import { frameworkError, installErrorPolicy } from './http/envelope.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { createAudit } from './system-log/audit.ts';
import { healthRoutes } from './health/health.routes.ts';
import { staffRoutes } from './staff/staff.routes.ts';
import { twoFactorRoutes } from './two-factor/two-factor.routes.ts';
import { systemLogRoutes } from './system-log/system-log.routes.ts';
import { emailRoutes } from './email/email.routes.ts';
import { messagesModule } from './messages/messages.module.ts';
import { menuRoutes } from './menu/menu.routes.ts';
import { authModule } from './auth/auth.module.ts';
import { createGateway } from './gateway/gateway.ts';
import { gatewayModule } from './gateway/gateway.module.ts';
import { eventsModule } from './events/events.module.ts';
import { settleBeforeAnswer } from './events/request-events.ts';
import type { FeatureModule } from './module.ts';
import { createBrokerGuard, deviceAuthRateLimit } from './gateway/device-auth.service.ts';
import { shellModule } from './shell/shell.module.ts';
import { productRoutes } from './product/product.routes.ts';
import { deviceRoutes } from './devices/devices.routes.ts';
import { eventRoutes } from './devices/events.routes.ts';
import { deviceStatisticsRoutes } from './devices/statistics.routes.ts';
import { deviceMapRoutes } from './devices/devices-map.routes.ts';
import { firmwareModule } from './firmware/firmware.module.ts';
import { otaModule } from './ota/ota.module.ts';
import { deviceGroupsModule } from './device-groups/device-groups.module.ts';
import { appVersionRoutes } from './app-version/app-version.routes.ts';
import { createAppGuard, type AppPrincipal } from './end-users/app-session.ts';
import { endUsersModule } from './end-users/end-users.module.ts';
import { tasksModule } from './tasks/tasks.module.ts';
import { ticketAttentionSources } from './tickets/attention.ts';
import { ticketsModule } from './tickets/tickets.module.ts';
import { storedFilesModule } from './stored-files/stored-files.module.ts';
import { contentRoutes } from './content/content.routes.ts';
import { dashboardRoutes } from './dashboard/dashboard.routes.ts';
import { coreAttentionSources } from './dashboard/attention.ts';
import { installRequestLog, loggerOptions } from './http/request-log.ts';
import { createMetrics } from './metrics/metrics.ts';
import { installHttpMetrics, metricsModule } from './metrics/metrics.module.ts';
import { createApiKeyGuard } from './integrations/api-key-auth.ts';
import { integrationsModule } from './integrations/integrations.module.ts';

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
  /** The feature modules, in start order (tests reach a module's listener through them). */
  modules: readonly FeatureModule[];
}

/** Builds the HTTP server over an open database: plugins, the error policy, then every feature. */
export async function buildApp(config: Config, database: Database, opts: { logger?: boolean } = {}): Promise<BuiltApp> {
  const app = Fastify({
    logger: opts.logger === false ? false : loggerOptions(config),
    // Request lines come from installRequestLog: errors and slow requests only.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: 'idle',
    // Start-up work grows with the fleet (marking a million mowers offline after a restart of the
    // embedded broker): it must not be cut off by Fastify's 10 s plugin timer.
    pluginTimeout: 0,
    frameworkErrors: frameworkError,
    clientErrorHandler: clientError,
  });
  app.setValidatorCompiler(validateInput);
  app.setSerializerCompiler(createSerializerCompiler(config.checkResponses));
  installErrorPolicy(app);
  installRequestLog(app, config.logSlowMs);
  requireEndpointTable(app);
  // One registry per server: tests run several in one process.
  const metrics = createMetrics();
  installHttpMetrics(app, metrics);
  // A client that opened a connection and never sent a byte (a fetch aborted at once) is neither
  // idle nor busy to Node: it would hold a graceful close open until headersTimeout.
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // A request in flight when the stop began is answered with `Connection: close`: its keep-alive
  // connection turns idle only after the close swept the idle ones, and would hold the stop open
  // for the whole keep-alive timeout (72 s in Fastify), past most orchestrators' grace period.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  installJsonBodyParser(app);
  // CSV bodies (the SN import) as text; the route's own bodyLimit applies.
  app.addContentTypeParser('text/csv', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  await registerSecurityHeaders(app, config.map);

  await app.register(fastifyJwt, { secret: config.jwtSecret });
  // Lists, the map's position snapshot and the console's assets shrink several-fold; binary
  // artifacts (firmware, served with Range) are not compressible types and pass untouched.
  await app.register(fastifyCompress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  // Counted in the database with a per-endpoint key, so every node enforces the same limit.
  await app.register(fastifyRateLimit, { global: false, store: sharedRateLimitStore(database.db), keyGenerator: rateLimitKey });
  if (config.corsOrigins.length > 0) await app.register(fastifyCors, { origin: config.corsOrigins });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Mowerline API', version: config.version, description: 'Admin, app and device-facing HTTP API. Every response is the envelope {code,msg,data,status}.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: documentMultipart(jsonSchemaTransform),
    // Puts schemas registered with an id (recursive ones such as RouteDef) under components.schemas.
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
  // WebSocket upgrades for every feature (MQTT over WebSocket at /mqtt, later the shell).
  await app.register(fastifyWebsocket, { options: { maxPayload: 1024 * 1024 } });

  const db = database.db;
  const staffPrincipals = new PrincipalCache<SessionPrincipal>(database.accessChanges, 'staff', config.sessionCacheMs);
  const appPrincipals = new PrincipalCache<AppPrincipal>(database.accessChanges, 'app', config.sessionCacheMs);
  app.addHook('onClose', async () => {
    staffPrincipals.close();
    appPrincipals.close();
  });
  const principalOf = createPrincipalReader(app, db, staffPrincipals);
  const ctx: AppContext = {
    config,
    database,
    db,
    mailer: createMailer(db, { smtpUrl: config.smtpUrl, from: config.mailFrom }),
    audit: createAudit(db),
    guard: createGuard(app, principalOf, config, createApiKeyGuard(db, { ratePerMinute: config.apiKeyRateLimit })),
    principalOf,
    appGuard: createAppGuard(app, db, appPrincipals),
    rateLimits: { account: accountRateLimit(config), deviceAuth: deviceAuthRateLimit(config) },
    brokerGuard: createBrokerGuard(config),
    gateway: createGateway(config, database, app.log, { onIngestBatch: metrics.observeIngestBatch }),
    metrics,
    log: app.log,
  };

  // Every feature, in start order (they stop in reverse). The event spine starts after them all
  // and stops before them, finishing its deliveries in flight.
  const modules: FeatureModule[] = [
    rateLimitModule,
    routesOnly('health', healthRoutes),
    // Early in the list, so it stops last: a scrape during shutdown still answers.
    metricsModule,
    routesOnly('staff', staffRoutes),
    routesOnly('two-factor', twoFactorRoutes),
    routesOnly('system-log', systemLogRoutes),
    routesOnly('email', emailRoutes),
    messagesModule,
    routesOnly('menu', menuRoutes),
    authModule,
    gatewayModule,
    shellModule,
    routesOnly('product', productRoutes),
    routesOnly('devices', deviceRoutes),
    routesOnly('device-events', eventRoutes),
    routesOnly('device-statistics', deviceStatisticsRoutes),
    routesOnly('device-map', deviceMapRoutes),
    deviceGroupsModule,
    firmwareModule,
    otaModule,
    routesOnly('app-version', appVersionRoutes),
    endUsersModule,
    tasksModule,
    ticketsModule,
    routesOnly('content', contentRoutes),
    storedFilesModule,
    integrationsModule,
    // The workplace's attention list: each feature with rows that need staff contributes a source.
    routesOnly('dashboard', (scope, c) => dashboardRoutes(scope, c, [...coreAttentionSources, ...ticketAttentionSources])),
  ].map((create) => create(ctx));
  const spine = eventsModule(ctx, () => modules.flatMap((m) => m.subscribes ?? []));
  settleBeforeAnswer(app, (ids) => spine.settle(ids));
  await app.register(async (scope) => {
    for (const m of [...modules, spine]) await m.routes?.(scope);
  });
  app.addHook('onReady', async () => {
    for (const m of modules) await m.start?.();
    await spine.start();
  });
  // After the HTTP server stopped taking requests and finished those in flight.
  app.addHook('onClose', async () => {
    await timed(app, 'events', () => spine.stop());
    for (const m of [...modules].reverse()) if (m.stop) await timed(app, m.name, () => m.stop!());
  });

  if (config.consoleDir && existsSync(config.consoleDir)) {
    await app.register(fastifyStatic, {
      root: config.consoleDir,
      wildcard: false,
      // The shell and version.json must never be cached; hashed assets can be, forever.
      setHeaders(res, file) {
        res.header('Cache-Control', /[\\/]assets[\\/]/.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.addHook('onClose', async () => ctx.mailer.close());
  return { app, ctx, modules };
}

/** A feature that only serves routes (no background work, no subscriptions). */
function routesOnly(name: string, routes: (scope: FastifyInstance, ctx: AppContext) => unknown): (ctx: AppContext) => FeatureModule {
  return (ctx) => ({ name, routes: async (scope) => void (await routes(scope, ctx)) });
}

/** Stops one module, saying how long it took (a slow stop is what an orchestrator's grace period cuts off). */
async function timed(app: FastifyInstance, name: string, stop: () => Promise<void>): Promise<void> {
  const started = performance.now();
  await stop();
  const ms = Math.round(performance.now() - started);
  if (ms >= 1000) app.log.info({ module: name, ms }, 'module stopped slowly');
  else app.log.debug({ module: name, ms }, 'module stopped');
}
