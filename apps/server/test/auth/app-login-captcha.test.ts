import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errors } from '@mowerline/contract';
import type { TestServer } from '../harness.ts';
import { confirmedAppUser } from '../end-users/fixtures.ts';
import { addStaff, from, login, PASSWORD, startAuthServer } from './fixtures.ts';

/** The console's captcha counts staff sign-in failures only: an app user's typos on the same network do not raise it. */
describe('app and staff sign-in counters are separate', () => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startAuthServer();
    admin = await server.login();
    await addStaff(server, admin, 'officeworker');
  });
  afterAll(async () => {
    await server.close();
  });

  const appLoginFrom = (ip: string, email: string, password: string) => server.api('POST', '/api/app/v1/user/login', { body: { email, password }, headers: from(ip) });

  it('failed app sign-ins from an address do not make the staff there solve a captcha', async () => {
    const user = await confirmedAppUser(server, admin);
    for (let i = 0; i < 6; i++) expect((await appLoginFrom('10.30.0.1', user.email, 'Wr0ng#Guess1')).body.code).toBe(errors.APP_LOGIN_FAILED.code);
    const res = await login(server, { username: 'officeworker', password: PASSWORD, ip: '10.30.0.1' });
    expect(res.body.code).toBe(0);
  });

  it('while failed staff sign-ins from an address still do', async () => {
    for (let i = 0; i < 3; i++) await login(server, { username: `nobody${i}`, password: 'Wr0ng#Guess1', ip: '10.30.0.2' });
    const res = await login(server, { username: 'officeworker', password: PASSWORD, ip: '10.30.0.2' });
    expect(res.body.code).toBe(errors.CAPTCHA_REQUIRED.code);
  });
});
