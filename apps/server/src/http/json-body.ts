import type { FastifyInstance } from 'fastify';
import { jsonDeeperThan, MAX_JSON_DEPTH } from '@mowerline/contract';
import { AppError } from './envelope.ts';

/**
 * JSON bodies are read as bytes (the route's body limit still answers 413 while reading) and
 * refused when they nest deeper than MAX_JSON_DEPTH, in one linear pass over the bytes before
 * anything decodes, parses or walks them: a 1 MB body nested thousands of levels deep once held
 * the event loop for seconds and overflowed the stack of the text check. What passes is decoded
 * and parsed by Fastify's own parser, with its refusal of `__proto__` and `constructor.prototype`.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const { onProtoPoisoning = 'error', onConstructorPoisoning = 'error' } = app.initialConfig;
  const parse = app.getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    if (jsonDeeperThan(body, MAX_JSON_DEPTH)) return done(new AppError('JSON_TOO_DEEP', { max: MAX_JSON_DEPTH }), undefined);
    parse(request, typeof body === 'string' ? body : body.toString('utf8'), done);
  });
}
