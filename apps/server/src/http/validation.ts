import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { unstorableTextPath } from '@mowerline/contract';
import type { z } from 'zod';
import { AppError } from './envelope.ts';

const parts: Record<string, string> = { body: 'body', querystring: 'query', params: 'params', headers: 'headers' };

/**
 * The zod validator, after one rule for every input: text PostgreSQL cannot store (NUL, a lone
 * surrogate) is refused with a 400 naming the field, instead of failing in the database as a 500.
 * It runs on the raw input, so no field, record key or future schema can miss it.
 */
export const validateInput: FastifySchemaCompiler<z.ZodType> = (route) => {
  const validate = validatorCompiler(route);
  return (data) => {
    const path = unstorableTextPath(data);
    if (path !== undefined) {
      const part = parts[route.httpPart ?? ''] ?? 'input';
      return { error: new AppError('UNSTORABLE_TEXT', { field: path ? `${part}.${path}` : part }) };
    }
    return validate(data);
  };
};
