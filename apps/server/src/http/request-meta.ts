import type { FastifyRequest } from 'fastify';

/** Where a request came from, as the audit log and sessions record it. */
export function requestMeta(request: FastifyRequest) {
  return { ip: request.ip, userAgent: String(request.headers['user-agent'] ?? '').slice(0, 512) };
}
