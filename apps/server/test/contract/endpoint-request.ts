import { z } from 'zod';
import { endpointUrl, SN_PATTERN, type EndpointDef } from '@mowerline/contract';
import type { TestServer } from '../harness.ts';

/** A syntactically valid SN (unregistered): path parameters must pass validation to reach the handler. */
export const SAMPLE_SN = 'MW-MATRIX-0001';
if (!SN_PATTERN.test(SAMPLE_SN)) throw new Error('SAMPLE_SN no longer matches SN_PATTERN');

/** The input side of a zod schema as JSON Schema (transforms and refinements left out). */
export function inputJsonSchema(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}

const UUID = '00000000-0000-4000-8000-000000000001';
const candidates = ['1', SAMPLE_SN, UUID, 'sample-0000000000000001', 'x'];

/** Valid-looking path parameters: numbers 1, an SN from SN_PATTERN, an enum's first value, an id. */
export function sampleParams(def: EndpointDef): Record<string, string> {
  const names = [...def.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const shape = def.params instanceof z.ZodObject ? (def.params.shape as Record<string, z.ZodType>) : {};
  const params = Object.fromEntries(
    names.map((name) => {
      const schema = shape[name];
      const options = schema instanceof z.ZodEnum ? [String(schema.options[0])] : candidates;
      return [name, options.find((value) => !schema || schema.safeParse(value).success) ?? 'x'];
    }),
  );
  if (def.params && !def.params.safeParse(params).success) {
    throw new Error(`${def.method} ${def.path}: no valid sample path parameters (${JSON.stringify(params)}); add a candidate in endpoint-request.ts`);
  }
  return params;
}

function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      search.append(key, typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export interface EndpointAnswer {
  url: string;
  status: number;
  /** Parsed JSON, or undefined for a file (CSV, binary) or an empty answer. */
  body: unknown;
  contentType: string;
}

/**
 * One request to an endpoint, encoded the way it consumes: JSON, CSV text, or multipart (the body's
 * fields, then a small `file` part). The answer is read in full; a JSON answer is parsed.
 */
export async function callEndpoint(
  server: TestServer,
  def: EndpointDef,
  input: { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown; token?: string; lang?: string },
): Promise<EndpointAnswer> {
  const url = endpointUrl(def, input.params ?? sampleParams(def)) + queryString(input.query);
  const headers: Record<string, string> = {};
  if (input.token) headers.authorization = `Bearer ${input.token}`;
  if (input.lang) headers['accept-language'] = input.lang;
  let body: string | FormData | undefined;
  if (def.consumes === 'multipart/form-data') {
    const form = new FormData();
    const fields = typeof input.body === 'object' && input.body !== null ? input.body : {};
    for (const [key, value] of Object.entries(fields)) form.append(key, typeof value === 'string' ? value : JSON.stringify(value));
    form.append('file', new Blob([new Uint8Array([1, 2, 3, 4])]), 'fuzz.bin');
    body = form;
  } else if (def.consumes === 'text/csv') {
    headers['content-type'] = 'text/csv';
    body = typeof input.body === 'string' ? input.body : JSON.stringify(input.body ?? '');
  } else if (input.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(input.body);
  }
  const res = await fetch(server.url + url, { method: def.method, headers, body });
  const contentType = res.headers.get('content-type') ?? '';
  const text = await res.text();
  const parsed: unknown = contentType.includes('json') && text ? JSON.parse(text) : undefined;
  return { url, status: res.status, body: parsed, contentType };
}
