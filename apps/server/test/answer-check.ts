import { z } from 'zod';
import { allEndpoints, endpointStatuses, envelopeSchema, errors, type EndpointDef } from '@mowerline/contract';

interface Compiled {
  name: string;
  def: EndpointDef;
  pattern: RegExp;
  /** Literal segments: a static route wins over a parametric one, as in Fastify's router. */
  literals: number;
}

function compile(name: string, def: EndpointDef): Compiled {
  const segments = def.path.split('/');
  const source = segments.map((s) => (s.startsWith(':') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
  return { name, def, pattern: new RegExp(`^${source}$`), literals: segments.filter((s) => !s.startsWith(':')).length };
}

let table: Compiled[] | undefined;

/** The table endpoint a request reached, by method and path (the query string ignored). */
export function endpointOf(method: string, url: string): { name: string; def: EndpointDef } | undefined {
  table ??= [...allEndpoints()].map(([name, def]) => compile(name, def));
  const path = url.split('?')[0]!;
  const matches = table.filter((c) => c.def.method === method.toUpperCase() && c.pattern.test(path));
  return matches.sort((a, b) => b.literals - a.literals)[0];
}

const errorEnvelope = z.object({ code: z.number().int(), msg: z.string().min(1), data: z.unknown(), status: z.literal('fail') }).strict();

function issues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

/**
 * Checks one answer against what the contract documents for its endpoint: the status is one the
 * endpoint lists (200 or a status of one of `endpointErrors`), an error's code is one of the keys
 * behind that status, and the body matches the documented schema (the success envelope with the
 * response schema, the error envelope, or a raw endpoint's own body). Returns the problem, or
 * undefined when the answer is as documented or the request reached no table endpoint.
 */
export function answerProblem(method: string, url: string, status: number, body: unknown): string | undefined {
  const found = endpointOf(method, url);
  if (!found || found.def.websocket) return undefined;
  const { name, def } = found;
  const where = `${method} ${url} (${name}, ${def.method} ${def.path})`;
  const show = JSON.stringify(body)?.slice(0, 400);
  if (status === 200 || (status === 206 && def.produces)) {
    if (def.produces) return undefined;
    const schema = def.raw ? (def.response ?? z.unknown()) : envelopeSchema(def.response ?? z.unknown()).extend({ code: z.literal(0), status: z.literal('ok') });
    const parsed = schema.safeParse(body);
    return parsed.success ? undefined : `${where} answered 200 with a body its response schema refuses: ${issues(parsed.error)}; body ${show}`;
  }
  const statuses = endpointStatuses(def);
  const keys = statuses.get(status);
  const documented = [...statuses.keys()].sort((a, b) => a - b).join(', ');
  if (!keys) {
    return `${where} answered ${status}, which its contract does not document (documents 200, ${documented}): add the error key to the endpoint's \`errors\` if the answer is right; body ${show}`;
  }
  if (def.raw && def.response?.safeParse(body).success) return undefined;
  const parsed = errorEnvelope.safeParse(body);
  if (!parsed.success) return `${where} answered ${status} without an error envelope: ${issues(parsed.error)}; body ${show}`;
  if (!keys.some((key) => errors[key].code === parsed.data.code)) {
    const codes = keys.map((key) => `${errors[key].code} ${key}`).join(', ');
    return `${where} answered ${status} with code ${parsed.data.code}, which its contract does not list for ${status} (lists ${codes}): add the error key to the endpoint's \`errors\`; body ${show}`;
  }
  return undefined;
}
