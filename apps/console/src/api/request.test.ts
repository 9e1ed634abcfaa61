import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RequestOptions } from './request.ts';

// The policy reads web storage and reloads the page: give it both before it loads.
const env = vi.hoisted(() => {
  class MemoryStorage {
    private items = new Map<string, string>();
    get length() {
      return this.items.size;
    }
    key = (i: number) => [...this.items.keys()][i] ?? null;
    getItem = (k: string) => this.items.get(k) ?? null;
    setItem = (k: string, v: string) => void this.items.set(k, String(v));
    removeItem = (k: string) => void this.items.delete(k);
    clear = () => this.items.clear();
  }
  const reload = vi.fn();
  const storages = { localStorage: new MemoryStorage(), sessionStorage: new MemoryStorage() };
  Object.assign(globalThis, storages, { window: { ...storages, location: { reload } } });
  return { reload, toast: vi.fn() };
});
vi.mock('@arco-design/web-react', () => ({ Message: { error: env.toast } }));

const { ApiError, request } = await import('./request.ts');
const get = <T,>(url: string, options: RequestOptions = {}) => request<T>({ ...options, method: 'GET', url });
const post = <T,>(url: string, data?: unknown) => request<T>({ method: 'POST', url, data });
const { useLocaleStore } = await import('../locale/i18n.ts');
const { useSession } = await import('../session/session.store.ts');

const seen: http.IncomingHttpHeaders[] = [];
const envelope = (code: number, msg: string, data: unknown) => JSON.stringify({ code, msg, data, status: code === 0 ? 'ok' : 'fail' });
const routes: Record<string, (res: http.ServerResponse) => void> = {
  '/ok': (res) => res.end(envelope(0, 'ok', { answer: 42 })),
  '/refused': (res) => res.end(envelope(41001, 'Wrong username or password', { captchaRequired: true })),
  '/bad-request': (res) => {
    res.statusCode = 400;
    res.end(envelope(40000, 'Invalid request: name', null));
  },
  '/no-message': (res) => res.end(envelope(50000, '', null)),
  '/unauthorized': (res) => {
    res.statusCode = 401;
    res.end(envelope(50008, 'Not signed in', { security_token: 'renewed-trust' }));
  },
  '/crash': (res) => {
    res.statusCode = 502;
    res.setHeader('content-type', 'text/html');
    res.end('<html>bad gateway</html>');
  },
  '/export.zip': (res) => {
    res.setHeader('content-type', 'application/zip');
    res.end(Buffer.from([0x50, 0x4b, 3, 4]));
  },
  '/slow': (res) => setTimeout(() => res.end(envelope(0, 'ok', null)), 300),
};
const server = http.createServer((req, res) => {
  seen.push(req.headers);
  const route = routes[new URL(req.url!, 'http://x').pathname];
  if (!route) {
    res.statusCode = 404;
    return res.end();
  }
  if (!res.hasHeader('content-type')) res.setHeader('content-type', 'application/json');
  route(res);
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  // Spec §7: the base URL is the session-stored server host.
  sessionStorage.setItem('server_host', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  seen.length = 0;
  env.toast.mockClear();
  env.reload.mockClear();
  useLocaleStore.setState({ locale: 'en-US' });
});

const rejection = (promise: Promise<unknown>) => promise.then(() => expect.unreachable('should reject'), (e: unknown) => e as InstanceType<typeof ApiError>);

describe('request policy', () => {
  it('resolves with the envelope data and sends token, security token and language', async () => {
    sessionStorage.setItem('token', 'access-1');
    localStorage.setItem('security_token', 'trust-1');
    useLocaleStore.setState({ locale: 'zh-CN' });
    await expect(get('/ok')).resolves.toEqual({ answer: 42 });
    expect(seen[0]).toMatchObject({ authorization: 'Bearer access-1', 'x-security-token': 'trust-1', 'accept-language': 'zh-CN' });
    expect(env.toast).not.toHaveBeenCalled();
  });

  it('rejects a non-zero code with its message and data, after a 5 s toast', async () => {
    const error = await rejection(post('/refused', { username: 'a' }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'Wrong username or password', code: 41001, data: { captchaRequired: true } });
    expect(env.toast).toHaveBeenCalledWith({ content: 'Wrong username or password', duration: 5000 });
  });

  it('falls back to Error for a failure without a message, and stays quiet when asked', async () => {
    await expect(rejection(get('/no-message'))).resolves.toMatchObject({ message: 'Error', code: 50000 });
    expect(env.toast).toHaveBeenCalledWith({ content: 'Error', duration: 5000 });
    env.toast.mockClear();
    await rejection(get('/refused', { silent: true }));
    expect(env.toast).not.toHaveBeenCalled();
  });

  it('toasts an HTTP error with the server message, or Request Error without one', async () => {
    await expect(rejection(get('/bad-request'))).resolves.toMatchObject({ message: 'Invalid request: name', code: 40000, httpStatus: 400 });
    await expect(rejection(get('/crash'))).resolves.toMatchObject({ message: 'Request Error', httpStatus: 502 });
    expect(env.toast.mock.calls.map(([m]) => m.content)).toEqual(['Invalid request: name', 'Request Error']);
  });

  it('on 401 keeps the renewed security token, logs out and reloads', async () => {
    sessionStorage.setItem('token', 'dead');
    useSession.setState({ user: { name: 'x', role: 'admin' } as never, serverRole: 'admin' });
    const error = await rejection(get('/unauthorized'));
    expect(error).toMatchObject({ code: 50008, httpStatus: 401 });
    expect(localStorage.getItem('security_token')).toBe('renewed-trust');
    expect(sessionStorage.getItem('token')).toBeNull();
    expect(useSession.getState().user).toBeNull();
    expect(env.reload).toHaveBeenCalledTimes(1);
    expect(env.toast).not.toHaveBeenCalled();
  });

  it('does not reload for a 401 to a request that carried no token', async () => {
    await rejection(get('/unauthorized'));
    expect(env.reload).not.toHaveBeenCalled();
    expect(localStorage.getItem('security_token')).toBe('renewed-trust');
  });

  it('passes blob and zip answers through unchecked', async () => {
    const data = await request<ArrayBuffer>({ url: '/export.zip', responseType: 'arraybuffer' });
    expect([...new Uint8Array(data)]).toEqual([0x50, 0x4b, 3, 4]);
  });

  it('names timeouts, aborted requests and network errors in the console language', async () => {
    await expect(rejection(get('/slow', { timeout: 50 }))).resolves.toMatchObject({ message: 'timeout of 50ms exceeded' });
    const controller = new AbortController();
    const aborted = rejection(get('/slow', { signal: controller.signal }));
    controller.abort();
    await expect(aborted).resolves.toMatchObject({ message: 'Request aborted' });
    sessionStorage.setItem('server_host', 'http://127.0.0.1:9');
    await expect(rejection(get('/ok'))).resolves.toMatchObject({ message: 'Network Error' });
    useLocaleStore.setState({ locale: 'zh-CN' });
    await expect(rejection(get('/ok'))).resolves.toMatchObject({ message: '网络错误' });
  });

  it('has no timeout by default and lets a call pin its base URL', async () => {
    await expect(get('/slow')).resolves.toBeNull();
    sessionStorage.setItem('server_host', 'http://127.0.0.1:9');
    const port = (server.address() as AddressInfo).port;
    await expect(get('/ok', { baseURL: `http://127.0.0.1:${port}` })).resolves.toEqual({ answer: 42 });
  });
});
