import type { z } from 'zod';
import { errors, type ErrorKey } from './errors.ts';
import type { Resource } from './roles.ts';
import type { AuditAction } from './system-log.ts';

/**
 * Who may call an endpoint. The server authenticates and checks the role from this before it
 * parses or validates anything; the authorization-matrix test reads it too.
 * - `public`: anyone (sign-in, captcha, health);
 * - `staff`: a signed-in staff member; with `resource`, one whose role `canAccess` it;
 * - `app`: a signed-in mobile-app user (never a staff token);
 * - `device`: a device, proven by the request itself (a signed download link, the MQTT login);
 * - `broker`: an external MQTT broker, proven by the shared DEVICE_AUTH_SECRET header; the
 *   endpoints answer 404 while no secret is configured;
 * - `socket`: a staff member whose role may use `resource`, proven by a WebSocket's first message
 *   (a token in the URL would end up in logs). The upgrade itself is open; a refused token or role
 *   is answered on the socket (an `error` message, then close), never with an HTTP status.
 */
export type Access = { kind: 'public' } | { kind: 'staff'; resource?: Resource } | { kind: 'app' } | { kind: 'device' } | { kind: 'broker' } | { kind: 'socket'; resource: Resource };

export const publicAccess = { kind: 'public' } as const;
export const appAccess = { kind: 'app' } as const;
export const deviceAccess = { kind: 'device' } as const;
export const brokerAccess = { kind: 'broker' } as const;
/** Signed-in staff; with a resource, only the roles `permissions[resource]` allows. */
export const staff = <R extends Resource>(resource?: R) => (resource ? ({ kind: 'staff', resource } as const) : ({ kind: 'staff' } as const));
/** A staff WebSocket that authenticates by its first message; only roles `permissions[resource]` allows. */
export const staffSocket = <R extends Resource>(resource: R) => ({ kind: 'socket', resource }) as const;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface EndpointDef {
  method: HttpMethod;
  /** Fastify-style path: `/api/admin/device/:sn`. */
  path: string;
  access: Access;
  /** OpenAPI tag: the feature. */
  tag: string;
  summary?: string;
  params?: z.ZodType;
  /** Request headers the endpoint reads (beyond Authorization and Accept-Language). */
  headers?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /**
   * The `data` of a success envelope. For a `raw` endpoint, the whole JSON body. Absent for a
   * streamed answer (`produces`).
   */
  response?: z.ZodType;
  /** Catalogue errors this endpoint answers beyond those its access and input imply. */
  errors?: readonly ErrorKey[];
  /** Streams a file instead of a JSON envelope: CSV export or a binary download. */
  produces?: 'text/csv' | 'application/octet-stream';
  /** Takes multipart/form-data (uploads) or CSV text instead of JSON. */
  consumes?: 'multipart/form-data' | 'text/csv';
  /** Longest body in bytes, when it differs from the server-wide 1 MiB. */
  bodyLimit?: number;
  /**
   * A per-source rate limit: `account` for sign-in, captcha, register and reset; `deviceAuth` for
   * the broker endpoints (callers without the secret only).
   */
  rateLimit?: 'account' | 'deviceAuth';
  /**
   * Not an envelope: `response` is the whole JSON body (a broker's allow/deny), on 200 and on
   * these statuses. Other errors still answer the error envelope.
   */
  raw?: { statuses: readonly number[] };
  /** The system-log action written for this call (success and failure). */
  audit?: AuditAction;
  /** A WebSocket upgrade; the socket authenticates itself with its first message. */
  websocket?: boolean;
  /**
   * Open to a staff member whose role must have a second factor but who has none yet
   * (REQUIRE_2FA_ROLES): what enrolment needs (user info, sign-out, the factor calls). Every other
   * staff endpoint answers TWO_FACTOR_ENROL_REQUIRED to such a caller.
   */
  enrolmentAllowed?: boolean;
  /**
   * A dangerous action ("sudo mode"): needs a second-factor confirmation (or a sign-in) within the
   * last STEP_UP_MINUTES, else STEP_UP_REQUIRED. On a socket endpoint, checked on its auth message.
   */
  stepUp?: boolean;
}

/** Declares an endpoint; `const` keeps its literal types, so clients and handlers are typed from it. */
export function endpoint<const E extends EndpointDef>(def: E): E {
  return def;
}

/** A feature's endpoints, by name. */
export type EndpointGroup = Record<string, EndpointDef>;

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type In<S> = S extends z.ZodType ? z.input<S> : undefined;

/** What a handler receives, validated. */
export type EndpointParams<E extends EndpointDef> = Out<E['params']>;
export type EndpointQuery<E extends EndpointDef> = Out<E['query']>;
export type EndpointBody<E extends EndpointDef> = Out<E['body']>;
/** What a client sends as the body. */
export type EndpointBodyInput<E extends EndpointDef> = In<E['body']>;
/** What a handler returns (before the server wraps it in the envelope). */
export type EndpointResult<E extends EndpointDef> = E['response'] extends z.ZodType ? z.input<E['response']> : unknown;
/** What a client reads back (the envelope's `data`). */
export type EndpointData<E extends EndpointDef> = E['response'] extends z.ZodType ? z.output<E['response']> : Blob;

type Optional<K extends string, T> = T extends undefined ? { [P in K]?: never } : object extends T ? { [P in K]?: T } : { [P in K]: T };
/** What a client sends: params, query and body, each only where the endpoint has one. */
export type EndpointInput<E extends EndpointDef> = Optional<'params', In<E['params']>> & Optional<'query', QueryInput<Out<E['query']>>> & Optional<'body', BodyInput<E>>;
/** A multipart body is its described fields plus the part `file` (the client sends it last). */
type BodyInput<E extends EndpointDef> = E['consumes'] extends 'multipart/form-data' ? In<E['body']> & { file: Blob } : In<E['body']>;
/** A query string is text on the wire: a client sends any part of the parsed shape; the server coerces and fills defaults. */
type QueryInput<T> = T extends undefined ? undefined : Partial<T>;

/** `/api/admin/device/:sn` with `{ sn: 'MW1' }` → `/api/admin/device/MW1`. */
export function endpointUrl(def: Pick<EndpointDef, 'path'>, params?: Record<string, unknown>): string {
  return def.path.replace(/:(\w+)/g, (_whole, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`${def.path}: missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

/**
 * Every catalogue error an endpoint can answer: its own, plus those its access (401, 403), its
 * input (400, 413, 415), its rate limit (429) and every server (500, and 431 for a request line
 * and headers past Node's limit, refused before any route) imply. The OpenAPI document,
 * the server's error answers and the response-validation test all come from this one list.
 */
export function endpointErrors(def: EndpointDef): ErrorKey[] {
  const keys = new Set<ErrorKey>(def.errors ?? []);
  keys.add('FAILURE');
  keys.add('HEADERS_TOO_LARGE');
  if (def.access.kind === 'staff' || def.access.kind === 'app') keys.add('NOT_SIGNED_IN');
  if (def.access.kind === 'broker') keys.add('NOT_FOUND');
  if (def.access.kind === 'staff' && def.access.resource) keys.add('FORBIDDEN');
  if (def.access.kind === 'staff' && !def.enrolmentAllowed) keys.add('TWO_FACTOR_ENROL_REQUIRED');
  if (def.access.kind === 'staff' && def.stepUp) keys.add('STEP_UP_REQUIRED');
  // A staff endpoint also takes an API key (`Authorization: Bearer mwl_…`): refused where keys never
  // go, short of a scope, or over the key's own rate limit.
  if (def.access.kind === 'staff') {
    keys.add('API_KEY_NOT_ALLOWED');
    keys.add('API_KEY_SCOPE');
    keys.add('API_KEY_RATE_LIMITED');
  }
  if (def.params || def.query || def.body || def.consumes) {
    keys.add('VALIDATION');
    keys.add('UNSTORABLE_TEXT');
  }
  if (def.body || def.consumes) {
    keys.add('BODY_TOO_LARGE');
    keys.add('UNSUPPORTED_MEDIA');
    keys.add('JSON_TOO_DEEP');
  }
  if (def.rateLimit) keys.add('RATE_LIMITED');
  return [...keys];
}

/** HTTP statuses an endpoint documents besides 200: its errors' statuses and its raw answers'. */
export function endpointStatuses(def: EndpointDef): Map<number, ErrorKey[]> {
  const byStatus = new Map<number, ErrorKey[]>();
  for (const key of endpointErrors(def)) {
    const status = errors[key].http;
    byStatus.set(status, [...(byStatus.get(status) ?? []), key]);
  }
  // A raw endpoint's own non-envelope answers (a broker's 403 deny) carry no catalogue code.
  for (const status of def.raw?.statuses ?? []) byStatus.set(status, byStatus.get(status) ?? []);
  return byStatus;
}

/** Flattens feature groups into `feature.name` → endpoint, refusing a method and path declared twice. */
export function endpointTable(groups: Record<string, EndpointGroup>): Map<string, EndpointDef> {
  const table = new Map<string, EndpointDef>();
  const seen = new Set<string>();
  for (const [feature, group] of Object.entries(groups)) {
    for (const [name, def] of Object.entries(group)) {
      const route = `${def.method} ${def.path}`;
      if (seen.has(route)) throw new Error(`endpoint declared twice: ${route}`);
      seen.add(route);
      table.set(`${feature}.${name}`, def);
    }
  }
  return table;
}
