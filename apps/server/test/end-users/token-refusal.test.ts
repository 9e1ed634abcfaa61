import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints, errors, type EndpointDef } from '@mowerline/contract';
import type { TestServer } from '../harness.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../smtp.ts';
import { appUserSignedIn, startEndUserServer } from './fixtures.ts';

/** A value for every path parameter: authentication runs before validation, so any value will do. */
const urlOf = (def: EndpointDef) => def.path.replace(/:(\w+)/g, (_w, name: string) => (name === 'sn' ? 'SN0001' : '1'));

describe('app and staff tokens, both ways, on every route of the endpoint table', () => {
  let smtp: SmtpReceiver;
  let server: TestServer;
  let staffToken: string;
  let appToken: string;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    server = await startEndUserServer(smtp);
    staffToken = await server.login();
    appToken = (await appUserSignedIn(server, smtp)).token;
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  const table = [...allEndpoints()].filter(([, def]) => !def.websocket);
  const staffRoutes = table.filter(([, def]) => def.access.kind === 'staff');
  const appRoutes = table.filter(([, def]) => def.access.kind === 'app');

  it('covers both kinds', () => {
    expect(staffRoutes.length).toBeGreaterThan(10);
    expect(appRoutes.length).toBeGreaterThan(10);
  });

  it.each(staffRoutes)('an app token is refused on %s', async (_name, def) => {
    const res = await server.api(def.method, urlOf(def), { token: appToken, body: def.method === 'GET' ? undefined : {} });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(errors.NOT_SIGNED_IN.code);
  });

  it.each(appRoutes)('a staff token is refused on %s', async (_name, def) => {
    const res = await server.api(def.method, urlOf(def), { token: staffToken, body: def.method === 'GET' ? undefined : {} });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(errors.NOT_SIGNED_IN.code);
  });

  it('each token still works where it belongs', async () => {
    expect((await server.api('GET', '/api/app/v1/user/profile', { token: appToken })).body.code).toBe(0);
    expect((await server.api('GET', '/api/admin/end-user', { token: staffToken })).body.code).toBe(0);
  });
});
