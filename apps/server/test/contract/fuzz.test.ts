import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { allEndpoints, authApi, isStorableText, type EndpointDef } from '@mowerline/contract';
import type { TestServer } from '../harness.ts';
import { answerProblem } from '../answer-check.ts';
import { STAFF_PASSWORD, addStaff, startStaffServer } from '../staff/fixtures.ts';
import { arbitraryFor, type Schema } from './arbitraries.ts';
import { callEndpoint, inputJsonSchema, sampleParams } from './endpoint-request.ts';

/**
 * Schema-driven fuzzing of every endpoint of the contract: params, query and body are
 * generated from the endpoint's own zod schemas (as JSON Schema), valid-ish values mixed with
 * hostile ones (NUL, lone surrogates, integers past int4, long strings, wrong types, unknown keys,
 * nested junk), sent as an admin and anonymously. Every answer must be a documented status with
 * its envelope, and never a 500. Bounded by counts, not time: RUNS per endpoint, one seed per run
 * of the suite (printed on failure, so a failure can be replayed with FUZZ_SEED).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 50);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

// WebSocket upgrades are not HTTP operations (the shell suites drive the socket protocol).
const endpoints = [...allEndpoints()].filter(([, def]) => !def.websocket);

/** Long runs of one character (the hostile long strings) folded, then the whole message bounded. */
const clip = (text: string) => {
  const folded = text.replace(/(.)\1{40,}/g, (run, c: string) => `${c.repeat(8)}…×${run.length}`);
  return folded.length > 1500 ? `${folded.slice(0, 1500)}…` : folded;
};

/**
 * What a URL can carry: a lone surrogate has no UTF-8 encoding (a NUL takes its place, refused by
 * the same rule), and text is cut at 2,000 characters so the request line stays under Node's 16 KiB
 * header limit (beyond it Node itself answers 431, before any route).
 */
function forUrl(value: unknown): unknown {
  if (typeof value === 'string') return (isStorableText(value) ? value : value.replace(/[\ud800-\udfff]/g, '\u0000')).slice(0, 2000);
  if (Array.isArray(value)) return value.map(forUrl);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [forUrl(k) as string, forUrl(v)]));
  return value;
}
const stringify = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

function inputs(def: EndpointDef) {
  const part = (schema: EndpointDef['body']) => (schema ? arbitraryFor(inputJsonSchema(schema) as Schema) : fc.constant(undefined));
  // Path parameters: valid samples most of the time (so the handler runs), otherwise generated
  // text; never empty, which would be another route.
  const params = def.params
    ? fc.oneof(
        { weight: 2, arbitrary: fc.constant(sampleParams(def)) },
        { weight: 1, arbitrary: part(def.params).map((p) => ({ ...sampleParams(def), ...(typeof p === 'object' && p ? p : {}) })) },
      ).map((p) => Object.fromEntries(Object.entries(p).map(([k, v]) => [k, (forUrl(stringify(v)) as string) || '0'])))
    : fc.constant(undefined);
  const query = part(def.query).map((q) => forUrl(typeof q === 'object' && q !== null && !Array.isArray(q) ? q : { q }) as Record<string, unknown>);
  const body = def.consumes === 'text/csv' ? fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.constant('sn,model\nMW-FUZZ-0001,NOPE\n')) : part(def.body);
  return fc.record({ params, query, body, anonymous: fc.integer({ min: 0, max: 4 }).map((n) => n === 0) } as const);
}

describe('schema-driven fuzzing of every endpoint', () => {
  let server: TestServer;
  let token = '';

  beforeAll(async () => {
    server = await startStaffServer();
    const root = await server.login();
    await addStaff(server, root, { username: 'fuzz-admin', role: 'admin' });
  });
  afterAll(() => server?.close());

  /** Signs in again when a fuzzed call ended the session (sign-out). */
  async function adminToken(): Promise<string> {
    if (token && (await callEndpoint(server, authApi.info, { token })).status === 200) return token;
    token = await server.login('fuzz-admin', STAFF_PASSWORD).catch(() => server.login());
    return token;
  }

  it.each(endpoints.map(([name, def]) => [`${name}: ${def.method} ${def.path}`, def] as const))(
    '%s',
    async (_label, def) => {
      const admin = await adminToken();
      const details = await fc.check(
        fc.asyncProperty(inputs(def), async (input) => {
          const answer = await callEndpoint(server, def, { ...input, token: input.anonymous ? undefined : admin });
          const problem =
            answer.status === 500
              ? `500 on ${def.method} ${answer.url}: ${JSON.stringify(answer.body)}`
              : answerProblem(def.method, answer.url, answer.status, answer.body);
          if (problem) throw new Error(problem);
        }),
        // No shrinking: the first counter-example is reported at once, keeping the suite bounded.
        { numRuns: RUNS, seed, endOnFailure: true },
      );
      if (details.failed) {
        const input = JSON.stringify(details.counterexample?.[0], (_key, value: unknown) => (typeof value === 'string' && value.length > 80 ? `${value.slice(0, 80)}…(${value.length})` : value));
        throw new Error(`${clip(String((details.errorInstance as Error | undefined)?.message))}\n  input ${clip(input)}\n  replay with FUZZ_SEED=${seed}`);
      }
    },
    120_000,
  );
});
