import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints, apiKeyAllowed, apiKeyScopeOf, apiKeyScopes, errors, type ApiKey, type ApiKeyScope, type EndpointDef, type Page, type SystemLog } from '@mowerline/contract';
import { openDatabase } from '../../src/db/client.ts';
import { startServer, type TestServer } from '../harness.ts';
import { answerProblem } from '../answer-check.ts';
import { callEndpoint } from '../contract/endpoint-request.ts';

/**
 * API keys: shown once and stored hashed, accepted on the staff API within their scopes, never on
 * what needs a step-up or manages staff and keys, attributed in the system log, rate limited, and
 * refused at once after revocation, on another node too.
 */
const code = (key: keyof typeof errors) => errors[key].code;

async function createKey(server: TestServer, token: string, scopes: readonly ApiKeyScope[], name = 'warranty system') {
  const res = await server.api<{ id: number; key: string; prefix: string }>('POST', '/api/admin/api-key', { token, body: { name, scopes } });
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 0 });
  return res.body.data;
}

describe('API keys', () => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await startServer();
    admin = await server.login();
  });
  afterAll(() => server?.close());

  it('is shown once with its prefix, listed without it, and lists devices with devices:read', async () => {
    const created = await createKey(server, admin, ['devices:read']);
    expect(created.key).toMatch(/^mwl_[A-Za-z0-9_-]{43}$/);
    expect(created.key.startsWith(created.prefix)).toBe(true);
    const devices = await server.api('GET', '/api/admin/device', { token: created.key });
    expect(devices.body.code, JSON.stringify(devices.body)).toBe(0);
    const list = await server.api<Page<ApiKey>>('GET', '/api/admin/api-key', { token: admin });
    const listed = list.body.data.list.find((k) => k.id === created.id)!;
    expect(listed).toMatchObject({ name: 'warranty system', prefix: created.prefix, scopes: ['devices:read'], lastUsedIp: '127.0.0.1', createdBy: 'admin' });
    expect(listed.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(list.body)).not.toContain(created.key);
    // Only the hash is stored.
    const stored = await server.database.db.execute<{ key_hash: string }>(`select key_hash from api_keys where id = ${created.id}` as never);
    expect(JSON.stringify(stored)).not.toContain(created.key.slice(12));
  });

  it('cannot open a shell, manage keys or staff, or read without its scope', async () => {
    const { key } = await createKey(server, admin, ['devices:read']);
    const keys = await server.api('GET', '/api/admin/api-key', { token: key, lang: 'en-US' });
    expect([keys.status, keys.body.code]).toEqual([403, code('API_KEY_NOT_ALLOWED')]);
    expect(keys.body.msg).toContain('Not allowed for API keys');
    const staffList = await server.api('GET', '/api/admin/user', { token: key });
    expect([staffList.status, staffList.body.code]).toEqual([403, code('API_KEY_NOT_ALLOWED')]);
    const tickets = await server.api('GET', '/api/admin/ticket', { token: key, lang: 'en-US' });
    expect([tickets.status, tickets.body.code]).toEqual([403, code('API_KEY_SCOPE')]);
    expect(tickets.body.msg).toContain('ticket:read');
  });

  it('refuses an expiry in the past', async () => {
    const res = await server.api('POST', '/api/admin/api-key', { token: admin, body: { name: 'old', scopes: ['devices:read'], expiresAt: '2001-01-01T00:00:00Z' } });
    expect(res.body.code).toBe(code('API_KEY_EXPIRY_PAST'));
  });

  it('attributes its calls to the key in the system log', async () => {
    const { key, prefix } = await createKey(server, admin, ['productSnWrite:write']);
    const res = await server.api('POST', '/api/admin/device/MW-NOT-THERE-1/clear-flag', { token: key });
    expect(res.body.code).toBe(code('SN_NOT_FOUND'));
    const log = await server.api<Page<SystemLog>>('GET', '/api/admin/system/log?action=device.flag.clear', { token: admin });
    expect(log.body.data.list[0]).toMatchObject({ actorName: `api-key:${prefix}`, result: 'failure', ip: '127.0.0.1' });
    const created = await server.api<Page<SystemLog>>('GET', '/api/admin/system/log?action=integration.api-key.create', { token: admin });
    expect(created.body.data.list[0]).toMatchObject({ actorName: 'admin', targetType: 'api-key', targetName: expect.stringContaining(prefix) });
  });

  it('is refused at once after revocation, on a second node of the same database too', async () => {
    const { id, key } = await createKey(server, admin, ['devices:read']);
    // PostgreSQL: a second node with its own connections; PGlite: a second server on the same database.
    const database = server.databaseUrl ? await openDatabase({ url: server.databaseUrl, dataDir: 'unused', onError: () => {} }) : server.database;
    const other = await startServer({ database, keepDatabase: !server.databaseUrl });
    try {
      expect((await other.api('GET', '/api/admin/device', { token: key })).body.code).toBe(0);
      const revoked = await server.api('DELETE', `/api/admin/api-key/${id}`, { token: admin });
      expect(revoked.body.code).toBe(0);
      for (const node of [server, other]) {
        const res = await node.api('GET', '/api/admin/device', { token: key });
        expect([res.status, res.body.code]).toEqual([401, code('NOT_SIGNED_IN')]);
      }
      expect((await server.api('DELETE', `/api/admin/api-key/${id}`, { token: admin })).body.code).toBe(code('NOT_FOUND'));
    } finally {
      await other.close();
    }
  });

  it('every staff endpoint × a key with and without its scope (generated from the endpoint table)', async () => {
    const full = await createKey(server, admin, apiKeyScopes, 'all scopes');
    const without = new Map<ApiKeyScope, string>();
    const keyWithout = async (scope: ApiKeyScope) => {
      if (!without.has(scope)) without.set(scope, (await createKey(server, admin, apiKeyScopes.filter((s) => s !== scope), `without ${scope}`)).key);
      return without.get(scope)!;
    };
    const staffEndpoints = [...allEndpoints()].filter(([, def]) => def.access.kind === 'staff' && !def.websocket);
    expect(staffEndpoints.length).toBeGreaterThan(50);
    const body = (def: EndpointDef) => (def.consumes === 'text/csv' ? '' : def.body || def.consumes ? {} : undefined);
    for (const [name, def] of staffEndpoints) {
      const scope = apiKeyScopeOf(def);
      const withScope = await callEndpoint(server, def, { token: full.key, body: body(def) });
      const seen = `${name} ${def.method} ${def.path}: ${withScope.status} ${JSON.stringify(withScope.body)?.slice(0, 160)}`;
      const got = (withScope.body as { code?: number } | undefined)?.code;
      expect.soft(answerProblem(def.method, withScope.url, withScope.status, withScope.body), seen).toBeUndefined();
      if (!apiKeyAllowed(def)) {
        expect.soft([withScope.status, got], seen).toEqual([403, code('API_KEY_NOT_ALLOWED')]);
        continue;
      }
      expect.soft([401, 403].includes(withScope.status), seen).toBe(false);
      const refused = await callEndpoint(server, def, { token: await keyWithout(scope!), body: body(def) });
      expect.soft([refused.status, (refused.body as { code?: number }).code], `${name} without ${scope}`).toEqual([403, code('API_KEY_SCOPE')]);
    }
  });
});

describe('API key rate limit', () => {
  let server: TestServer;
  afterAll(() => server?.close());

  it('answers 429 with Retry-After past API_KEY_RATE_LIMIT calls a minute', async () => {
    server = await startServer({ config: { apiKeyRateLimit: 3 } });
    const admin = await server.login();
    const { key } = await createKey(server, admin, ['devices:read']);
    for (let i = 0; i < 3; i++) expect((await server.api('GET', '/api/admin/device', { token: key })).body.code).toBe(0);
    const limited = await server.api('GET', '/api/admin/device', { token: key });
    expect([limited.status, limited.body.code]).toEqual([429, code('API_KEY_RATE_LIMITED')]);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // A staff session is not counted against the key's limit.
    expect((await server.api('GET', '/api/admin/device', { token: admin })).body.code).toBe(0);
  });
});
