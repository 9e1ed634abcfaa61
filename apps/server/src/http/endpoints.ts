import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, onRequestAsyncHookHandler, RouteOptions } from 'fastify';
import type { SwaggerTransform } from '@fastify/swagger';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import {
  endpointStatuses,
  envelopeSchema,
  errors,
  type Access,
  type EndpointBody,
  type EndpointDef,
  type EndpointGroup,
  type EndpointParams,
  type EndpointQuery,
  type EndpointResult,
} from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import type { AuditEntry } from '../system-log/audit.ts';
import { AppError, ok } from './envelope.ts';

/** What the registrar adds to the system-log row of an audited endpoint. */
export type AuditNote = Omit<AuditEntry, 'action' | 'result'> & { result?: AuditEntry['result'] };

/** A handler's validated input, plus the request and reply for what only they carry. */
export interface HandlerInput<E extends EndpointDef> {
  params: EndpointParams<E>;
  query: EndpointQuery<E>;
  body: EndpointBody<E>;
  request: FastifyRequest;
  reply: FastifyReply;
  /** Names the target and detail of this call's system-log row (audited endpoints only). */
  audit(note: AuditNote): void;
}

type SocketHandler = (socket: WebSocket, request: FastifyRequest) => void;
/** A handler is the service call: the envelope, access, audit and errors come from its endpoint. */
export type Handler<E extends EndpointDef> = E['websocket'] extends true
  ? SocketHandler
  : (input: HandlerInput<E>) => Promise<E['produces'] extends string ? FastifyReply : EndpointResult<E>>;
export type Handlers<G extends EndpointGroup> = { [K in keyof G]: Handler<G[K]> };

const errorEnvelope = z.object({ code: z.number().int(), msg: z.string(), data: z.unknown(), status: z.literal('fail') });

/** The authentication and role check, run on `onRequest`: before the body is read or validated. */
function accessHook(ctx: AppContext, def: EndpointDef): onRequestAsyncHookHandler | undefined {
  const access: Access = def.access;
  switch (access.kind) {
    case 'staff':
      return ctx.guard(access.resource, def);
    case 'app':
      if (!ctx.appGuard) throw new Error('app endpoints need ctx.appGuard');
      return ctx.appGuard;
    case 'broker':
      return ctx.brokerGuard;
    default:
      return undefined;
  }
}

/** The Fastify schema of an endpoint: validation from the contract, every answer documented. */
function routeSchema(def: EndpointDef) {
  const response: Record<number, unknown> = {};
  if (def.produces) {
    // Documentation only: a streamed file is not serialized.
    response[200] = { description: `A ${def.produces} file, streamed`, content: { [def.produces]: { schema: z.string() } } };
  } else if (def.response) {
    response[200] = def.raw ? def.response : envelopeSchema(def.response);
  }
  for (const [status, keys] of endpointStatuses(def)) {
    const codes = keys.map((key) => `${errors[key].code} ${key}`).join(', ');
    const raw = def.raw?.statuses.includes(status) && def.response;
    // A status both raw and a catalogue error (rare) documents either body.
    response[status] = raw ? (keys.length > 0 ? z.union([def.response!, errorEnvelope]) : def.response) : errorEnvelope.describe(codes);
  }
  const multipart = def.consumes === 'multipart/form-data';
  const schema = {
    tags: [def.tag],
    summary: def.summary,
    security: def.access.kind === 'staff' || def.access.kind === 'app' ? [{ bearer: [] }] : undefined,
    params: def.params,
    headers: def.headers,
    querystring: def.query,
    // A multipart body is read by the handler as a stream; its schema is for the document only.
    body: multipart ? undefined : def.body,
    multipartBody: multipart ? def.body : undefined,
    consumes: def.consumes ? [def.consumes] : undefined,
    produces: def.produces ? [def.produces] : undefined,
    response,
    hide: def.websocket ? true : undefined,
  };
  // Fastify warns about schema keys that are present but undefined.
  return Object.fromEntries(Object.entries(schema).filter(([, value]) => value !== undefined));
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract endpoint a route was registered from; routes without one are refused. */
    endpoint?: EndpointDef;
  }
}

function register(app: FastifyInstance, ctx: AppContext, def: EndpointDef, handler: unknown) {
  const route: RouteOptions = {
    method: def.method,
    url: def.path,
    schema: routeSchema(def),
    config: { endpoint: def },
    bodyLimit: def.bodyLimit,
    handler: async () => undefined,
  };
  // The rate limit first (an unauthenticated flood is refused cheaply), then who is calling.
  const onRequest = [def.rateLimit && app.rateLimit(ctx.rateLimits[def.rateLimit]), accessHook(ctx, def)].filter((hook) => !!hook);
  if (onRequest.length > 0) route.onRequest = onRequest;
  if (def.websocket) {
    // With `websocket: true`, @fastify/websocket takes `handler` itself as the socket handler (a
    // `wsHandler` would be ignored) and answers a plain GET with 404.
    app.route({ ...route, websocket: true, handler: handler as SocketHandler });
    return;
  }
  const serve = handler as (input: HandlerInput<EndpointDef>) => Promise<unknown>;
  route.handler = async (request, reply) => {
    let note: AuditNote | undefined;
    const input: HandlerInput<EndpointDef> = {
      params: request.params,
      query: request.query,
      body: request.body,
      request,
      reply,
      audit: (n) => {
        note = { ...note, ...n, detail: { ...note?.detail, ...n.detail } };
      },
    };
    let data: unknown;
    try {
      data = await serve(input);
    } catch (err) {
      if (def.audit && err instanceof AppError) {
        await ctx.audit(request, { ...note, action: def.audit, result: 'failure', detail: { ...note?.detail, error: err.key, ...err.params } });
      }
      throw err;
    }
    if (def.audit) await ctx.audit(request, { ...note, action: def.audit, result: note?.result ?? 'success' });
    if (def.produces || def.raw) return data;
    return ok(request, data);
  };
  app.route(route);
}

/** Registers every endpoint of a feature group; the type demands a handler for each one. */
export function serve<G extends EndpointGroup>(app: FastifyInstance, ctx: AppContext, group: G, handlers: Handlers<G>): void {
  for (const [name, def] of Object.entries(group)) register(app, ctx, def, handlers[name]);
}

/** Refuses, at start-up, any API route that does not come from the contract's endpoint table. */
export function requireEndpointTable(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const url = route.url ?? '';
    const isApi = url.startsWith('/api/') && !url.startsWith('/api/docs');
    if (isApi && route.method !== 'HEAD' && !route.config?.endpoint) {
      throw new Error(`${String(route.method)} ${url} is not declared in the contract's endpoint table`);
    }
  });
}

/** The OpenAPI transform: multipart bodies documented from the contract, then zod → JSON Schema. */
export function documentMultipart(transform: SwaggerTransform<FastifySchema>): SwaggerTransform<FastifySchema> {
  return (doc) => {
    const { multipartBody, ...schema } = doc.schema as FastifySchema & { multipartBody?: unknown };
    const transformed = transform({ ...doc, schema: multipartBody ? { ...schema, body: multipartBody } : schema });
    const body = (transformed.schema as { body?: { properties?: Record<string, unknown> } } | undefined)?.body;
    if (multipartBody && body) body.properties = { ...body.properties, file: { type: 'string', format: 'binary' } };
    return transformed;
  };
}
