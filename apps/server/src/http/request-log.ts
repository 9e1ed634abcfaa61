import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import pretty from 'pino-pretty';
import type { Config } from '../config.ts';

/**
 * The server's pino options: credentials redacted; on a terminal in development, human-readable
 * lines (pino-pretty) instead of JSON. Both write through process.stdout in this thread, so what
 * start-up prints itself afterwards (the first password) really comes after the log lines.
 */
export function loggerOptions(config: Pick<Config, 'logLevel' | 'logPretty'>): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level: config.logLevel,
    // Credentials never reach the log.
    redact: ['req.headers.authorization', 'req.headers["x-security-token"]', 'req.body.password'],
    stream: config.logPretty ? pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', destination: process.stdout }) : process.stdout,
  };
}

/**
 * One line per request that deserves a look, instead of two per request (Fastify's default, which
 * buried everything else under device and console polling): server errors, client errors, and
 * requests slower than `slowMs`. The path is logged without its query (signed links carry secrets).
 */
export function installRequestLog(app: FastifyInstance, slowMs: number) {
  // At debug level (LOG_LEVEL=debug) every request is also logged as it arrives.
  app.addHook('onRequest', async (request) => {
    request.log.debug({ method: request.method, path: request.url.split('?')[0] }, 'incoming request');
  });
  app.addHook('onResponse', async (request, reply) => {
    const status = reply.statusCode;
    const ms = Math.round(reply.elapsedTime);
    const slow = ms >= slowMs;
    if (status < 400 && !slow) return;
    const path = request.url.split('?')[0];
    const line = { method: request.method, path, status, ms };
    const text = `${request.method} ${path} ${status} in ${ms} ms`;
    if (status >= 500) request.log.error(line, text);
    else if (slow && slowMs > 0) request.log.warn(line, `slow request: ${text}`);
    else request.log.info(line, text);
  });
}
