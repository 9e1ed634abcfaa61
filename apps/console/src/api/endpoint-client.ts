import { useMutation, useQuery, useQueryClient, type QueryClient, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { endpointUrl, type EndpointData, type EndpointDef, type EndpointGroup, type EndpointInput } from '@mowerline/contract';
import { request, type RequestOptions } from './request.ts';

type Input<E extends EndpointDef> = EndpointInput<E>;

/**
 * Calls a contract endpoint through the one request wrapper (envelope, 401, toasts; a streamed
 * file comes back as a Blob). Path, method and answer type all come from the endpoint.
 */
export function call<E extends EndpointDef>(def: E, input: Input<E> = {} as Input<E>, options: RequestOptions = {}): Promise<EndpointData<E>> {
  const { params, query, body } = input as { params?: Record<string, unknown>; query?: object; body?: unknown };
  return request<EndpointData<E>>({
    ...options,
    method: def.method,
    url: endpointUrl(def, params),
    params: query,
    data: def.consumes === 'multipart/form-data' ? formData(body) : body,
    responseType: def.produces ? 'blob' : options.responseType,
    headers: def.consumes === 'text/csv' ? { 'Content-Type': 'text/csv', ...options.headers } : options.headers,
  });
}

/** A multipart body: the fields first, then the part `file`, so the server checks them before it stores a byte. */
function formData(body: unknown): unknown {
  if (body instanceof FormData) return body;
  const { file, ...fields } = body as { file: Blob } & Record<string, unknown>;
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined && value !== null) form.append(name, String(value));
  form.append('file', file, file instanceof File ? file.name : 'file');
  return form;
}

/**
 * The TanStack Query key of an endpoint: `[method, path]`, then the input. Invalidating the short
 * form refreshes every cached call of that endpoint.
 */
export function endpointKey<E extends EndpointDef>(def: E, input?: Input<E>): QueryKey {
  return input === undefined ? [def.method, def.path] : [def.method, def.path, input];
}

type QueryOptions<E extends EndpointDef> = Omit<UseQueryOptions<EndpointData<E>, Error, EndpointData<E>, QueryKey>, 'queryKey' | 'queryFn'>;

/** `useQuery` of an endpoint. */
export function useEndpoint<E extends EndpointDef>(def: E, input: Input<E> = {} as Input<E>, options: QueryOptions<E> = {}) {
  return useQuery({ queryKey: endpointKey(def, input), queryFn: () => call(def, input), ...options });
}

/**
 * What a mutation refreshes: an endpoint's cached calls, every endpoint of a feature group, or
 * every cached call under a path prefix (an endpoint's `path`, never a string written by hand).
 */
export type Invalidation = EndpointDef | EndpointGroup | `/api/${string}`;

/** Refreshes what `target` names; for mutations that pick their endpoint per call. */
export function invalidate(client: QueryClient, target: Invalidation): Promise<unknown> {
  if (typeof target === 'string') {
    return client.invalidateQueries({ predicate: (q) => typeof q.queryKey[1] === 'string' && q.queryKey[1].startsWith(target) });
  }
  if (isEndpoint(target)) return client.invalidateQueries({ queryKey: endpointKey(target) });
  return Promise.all(Object.values(target).map((def) => invalidate(client, def)));
}

const isEndpoint = (target: EndpointDef | EndpointGroup): target is EndpointDef => typeof target.method === 'string' && typeof target.path === 'string';

/** `useMutation` of an endpoint; on success it refreshes what `invalidates` names. */
export function useEndpointMutation<E extends EndpointDef, V = Input<E>>(
  def: E,
  opts: { toInput?: (vars: V) => Input<E>; invalidates?: readonly Invalidation[]; options?: RequestOptions } = {},
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (vars: V) => call(def, opts.toInput ? opts.toInput(vars) : (vars as unknown as Input<E>), opts.options),
    onSuccess: () => Promise.all((opts.invalidates ?? []).map((target) => invalidate(client, target))),
  });
}

/** Saves a streamed file (a CSV export) under a name. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
