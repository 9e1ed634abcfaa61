import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints, authApi, canAccess, errors, type EndpointDef, type Role } from '@mowerline/contract';
import type { TestServer } from '../harness.ts';
import { answerProblem } from '../answer-check.ts';
import { STAFF_PASSWORD, addStaff, startStaffServer } from '../staff/fixtures.ts';
import { callEndpoint, type EndpointAnswer } from './endpoint-request.ts';

/**
 * The authorization matrix, generated from the contract's endpoint table (issues 11 and 12): every
 * endpoint × anonymous, role `user`, role `admin`, asserting exactly what its `access` says. Access
 * is checked before the body is read or validated, so an empty body is enough to see the verdict.
 * A new endpoint is in the matrix the moment it is in the table.
 */
const NOT_SIGNED_IN = errors.NOT_SIGNED_IN.code;
const FORBIDDEN = errors.FORBIDDEN.code;

type Caller = 'anonymous' | Role;
const callers: Caller[] = ['anonymous', 'user', 'admin'];

/** What `access` says a caller gets: signed-out 401, role-refused 403, or through to the handler. */
function verdict(def: EndpointDef, caller: Caller): 'unauthenticated' | 'forbidden' | 'through' {
  switch (def.access.kind) {
    case 'public':
    case 'device':
      return 'through';
    case 'broker':
      // No staff role opens or closes them: only the broker's shared secret does (mqtt-abuse.test.ts).
      return 'through';
    case 'app':
      // App endpoints take app-user tokens only: a staff token is no sign-in there.
      return 'unauthenticated';
    case 'staff':
    case 'socket':
      if (caller === 'anonymous') return 'unauthenticated';
      return !def.access.resource || canAccess(caller, def.access.resource) ? 'through' : 'forbidden';
  }
}

/** An empty body of the right kind: the verdict comes before the body is looked at. */
function emptyBody(def: EndpointDef): unknown {
  if (def.consumes === 'text/csv') return '';
  return def.body || def.consumes ? {} : undefined;
}

// WebSocket upgrades authenticate on the socket (their first message), not with an HTTP status:
// the shell suites test that.
const endpoints = [...allEndpoints()].filter(([, def]) => !def.websocket);

describe('authorization matrix (every endpoint of the contract × anonymous, user, admin)', () => {
  let server: TestServer;
  const tokens: Partial<Record<Role, string>> = {};
  const usernames: Record<Role, [string, string]> = { admin: ['matrix-admin', STAFF_PASSWORD], user: ['matrix-user', STAFF_PASSWORD] };

  beforeAll(async () => {
    server = await startStaffServer();
    const root = await server.login();
    // Accounts of their own, so an endpoint that acts on the caller (sign-out, a password change
    // with an empty body) never touches the bootstrap admin.
    await addStaff(server, root, { username: 'matrix-admin', role: 'admin' });
    await addStaff(server, root, { username: 'matrix-user', role: 'user' });
  });
  afterAll(() => server?.close());

  /** The role's token, signing in again when the last call ended the session (sign-out). */
  async function tokenOf(role: Role): Promise<string> {
    const current = tokens[role];
    if (current) {
      const alive = await callEndpoint(server, authApi.info, { token: current });
      if (alive.status === 200) return current;
    }
    tokens[role] = await server.login(...usernames[role]);
    return tokens[role];
  }

  it('covers the whole table', () => {
    expect(endpoints.length).toBeGreaterThan(0);
  });

  for (const [name, def] of endpoints) {
    it(`${name}: ${def.method} ${def.path} (${def.access.kind}${'resource' in def.access && def.access.resource ? ` ${def.access.resource}` : ''})`, async () => {
      for (const caller of callers) {
        const token = caller === 'anonymous' ? undefined : await tokenOf(caller);
        const answer: EndpointAnswer = await callEndpoint(server, def, { token, body: emptyBody(def) });
        const code = (answer.body as { code?: number } | undefined)?.code;
        const seen = `${caller} got ${answer.status} ${JSON.stringify(answer.body)?.slice(0, 200)}`;
        const expected = verdict(def, caller);
        if (expected === 'unauthenticated') expect([answer.status, code], seen).toEqual([401, NOT_SIGNED_IN]);
        else if (expected === 'forbidden') expect([answer.status, code], seen).toEqual([403, FORBIDDEN]);
        else {
          expect(answer.status === 401 && code === NOT_SIGNED_IN, seen).toBe(false);
          expect(answer.status === 403 && code === FORBIDDEN, seen).toBe(false);
        }
        // And whatever the answer, it is one the contract documents.
        expect.soft(answerProblem(def.method, answer.url, answer.status, answer.body), seen).toBeUndefined();
      }
    });
  }
});
