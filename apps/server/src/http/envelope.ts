import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { errorMessage, errors, pickLocale, validationMessage, type Envelope, type ErrorKey, type ErrorParams } from '@mowerline/contract';

/** A failure the client should see: an error-catalogue key, its message parameters and optional data. */
export class AppError extends Error {
  constructor(
    readonly key: ErrorKey,
    readonly params: ErrorParams = {},
    readonly data: unknown = null,
  ) {
    super(key);
  }
}

export function localeOf(request: FastifyRequest) {
  return pickLocale(request.headers['accept-language']);
}

/** The success envelope, its message in the caller's language. */
export function ok<T>(request: FastifyRequest, data: T): Envelope<T> {
  return { code: 0, msg: errorMessage('OK', localeOf(request)), data, status: 'ok' };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, key: ErrorKey, params: ErrorParams = {}, data: unknown = null) {
  const body: Envelope<unknown> = { code: errors[key].code, msg: errorMessage(key, localeOf(request), params), data, status: 'fail' };
  return reply.status(errors[key].http).type('application/json; charset=utf-8').send(body);
}

/**
 * Errors Fastify's router answers before any hook or error handler (a path parameter longer than
 * `maxParamLength`, a malformed percent-encoding): a 400 envelope like any other invalid input,
 * not Fastify's own 414/400 body. Passed as the `frameworkErrors` option.
 */
export function frameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  return sendError(request, reply, 'VALIDATION', { detail: error.message });
}

/** The one error policy: everything a handler throws leaves as an envelope with a catalogue code. */
export function installErrorPolicy(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) return sendError(request, reply, error.key, error.params, error.data);
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issue = error.validation[0];
      const where = issue?.instancePath ? issue.instancePath.replace(/^\//, '').replaceAll('/', '.') : error.validationContext ?? '';
      const detail = [where, issue?.message && validationMessage(issue.message, localeOf(request))].filter(Boolean).join(': ');
      return sendError(request, reply, 'VALIDATION', { detail }, { issues: error.validation.slice(0, 10) });
    }
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendError(request, reply, 'BODY_TOO_LARGE');
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendError(request, reply, 'UNSUPPORTED_MEDIA');
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return sendError(request, reply, 'VALIDATION', { detail: error.message });
    }
    if (error.statusCode === 429) return sendError(request, reply, 'RATE_LIMITED');
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return sendError(request, reply, 'VALIDATION', { detail: error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(request, reply, 'FAILURE');
  });
  app.setNotFoundHandler((request, reply) => sendError(request, reply, 'NOT_FOUND'));
}
