import fc from 'fast-check';

/** The JSON Schema keywords `z.toJSONSchema` writes for the contract's inputs. */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: Schema | boolean;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

/** `leaf` inside `depth` levels of arrays or of objects. */
function nestedValue(depth: number, kind: 'array' | 'object', leaf: unknown = 'deep'): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
  return value;
}

/**
 * What an attacker or a broken client sends instead: text PostgreSQL cannot store, integers past
 * int4 and int8, huge and odd numbers, long and hostile strings, wrong types, nested junk, and
 * nesting past the JSON depth limit.
 */
export const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    'a\u0000b',
    '\u0000',
    'x\ud800y',
    '\udfff',
    2 ** 31,
    2 ** 31 - 1,
    -(2 ** 31) - 1,
    2 ** 53 + 2,
    9.5,
    -1,
    0,
    1e308,
    '99999999999999999999999',
    'NaN',
    '',
    ' ',
    'x'.repeat(10_000),
    "' OR 1=1 --",
    '<img src=x onerror=alert(1)>',
    '../../etc/passwd',
    '%00',
    '1970-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999+14:00',
    true,
    null,
    [],
    {},
    JSON.parse('{"__proto__":{"admin":true},"constructor":{"prototype":1}}') as unknown,
    [[[[[[['deep']]]]]]],
    // Past the 64-level JSON depth limit, and far past it (a body must be refused, never a 500).
    nestedValue(65, 'object'),
    nestedValue(1_000, 'array'),
    nestedValue(2_000, 'object', 'x\u0000'),
  ),
  fc.jsonValue({ maxDepth: 3 }),
);

const dateTime = fc
  .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString());

function stringFor(schema: Schema): fc.Arbitrary<string> {
  if (schema.format === 'date-time') return dateTime;
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? 256));
  return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 200), unit: 'grapheme' });
}

/** A value shaped like the schema (usually valid), with hostile values mixed in at every level. */
export function arbitraryFor(schema: Schema | boolean | undefined, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 5, arbitrary: shaped(schema, depth) }, { weight: 1, arbitrary: hostile });
}

function shaped(schema: Schema | boolean | undefined, depth: number): fc.Arbitrary<unknown> {
  if (typeof schema !== 'object' || depth > 4) return fc.jsonValue({ maxDepth: 2 });
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches?.length) return fc.oneof(...branches.map((b) => shaped(b, depth + 1)));
  const type = [schema.type].flat()[0];
  switch (type) {
    case 'string':
      return stringFor(schema);
    case 'integer':
      // Inside the bounds mostly, and often just past them or past int4, where databases fail.
      return fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: Math.max(schema.minimum ?? -1000, -(2 ** 31)), max: Math.min(schema.maximum ?? 100_000, 2 ** 31 - 1) }) },
        { weight: 1, arbitrary: fc.constantFrom(...[schema.minimum, schema.maximum].filter((n) => n !== undefined), 2 ** 31, 2 ** 31 - 1, -(2 ** 31) - 1, 2 ** 63, 0) },
      );
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(arbitraryFor(schema.items, depth + 1), { minLength: Math.min(schema.minItems ?? 0, 5), maxLength: Math.min(schema.maxItems ?? 5, 5) });
    case 'object': {
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const record = fc.record(
        Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, arbitraryFor(value, depth + 1)])),
        { requiredKeys: Object.keys(properties).filter((key) => required.has(key)) },
      );
      // Sometimes a key the schema does not know (strict schemas must refuse it with a 400).
      return fc.tuple(record, fc.option(fc.dictionary(fc.string({ maxLength: 8 }), hostile, { maxKeys: 2 }), { freq: 4 })).map(([r, extra]) => ({ ...extra, ...r }));
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}
