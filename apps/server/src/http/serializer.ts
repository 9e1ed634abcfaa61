import { isDeepStrictEqual } from 'node:util';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type Serialize = (data: unknown) => string;

/**
 * The answer's writer, compiled once per route from its contract schema: fast-json-stringify over
 * the schema's JSON Schema writes only the declared fields, in one pass, instead of zod re-encoding
 * the whole answer and `JSON.stringify` walking it again (a quarter of a small list call's CPU).
 * A schema JSON Schema cannot express (a transform) keeps the zod writer.
 *
 * `check` (every process but production, so the whole test suite): each answer is also written by
 * zod, which validates it against the contract, and the two must agree, or the request fails.
 */
export function createSerializerCompiler(check: boolean): FastifySerializerCompiler<z.ZodType> {
  return (route) => {
    const viaZod = zodSerializerCompiler(route) as Serialize;
    const compiled = compile(route.schema);
    if (!compiled) return viaZod;
    if (!check) return compiled;
    return (data) => {
      const expected = viaZod(data);
      const written = compiled(data);
      if (!isDeepStrictEqual(JSON.parse(written), JSON.parse(expected))) {
        throw new Error(`compiled answer of ${route.method} ${route.url} differs from the contract's: ${written.slice(0, 500)} ≠ ${expected.slice(0, 500)}`);
      }
      return written;
    };
  };
}

function compile(schema: unknown): Serialize | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  try {
    const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'throw' });
    return fastJson(json as Parameters<typeof fastJson>[0]) as Serialize;
  } catch {
    return undefined;
  }
}
