import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints, errors, shellApi } from '@mowerline/contract';
import { sessions } from '../../src/auth/auth.sql.ts';
import { ADMIN, startServer, type TestServer } from '../harness.ts';
import { answerProblem } from '../answer-check.ts';
import { ShellClient } from '../shell/fixtures.ts';
import { callEndpoint } from './endpoint-request.ts';

/**
 * Step-up ("sudo mode"), generated from the endpoint table: every endpoint marked `stepUp` refuses
 * a session whose last confirmation is older than STEP_UP_MINUTES, with STEP_UP_REQUIRED, before
 * it reads the body; the shell socket refuses on its auth message. A confirmation lets them through.
 */
const STEP_UP_REQUIRED = errors.STEP_UP_REQUIRED.code;
const stepUpEndpoints = [...allEndpoints()].filter(([, def]) => def.stepUp && !def.websocket);

describe('step-up is enforced on every endpoint the table marks', () => {
  let server: TestServer;
  let token: string;
  const expireConfirmation = () => server.ctx.db.update(sessions).set({ stepUpAt: new Date(Date.now() - server.config.stepUpMs - 1000) });

  beforeAll(async () => {
    server = await startServer();
    token = await server.login();
  });
  afterAll(() => server.close());

  it('marks the dangerous actions', () => {
    const paths = stepUpEndpoints.map(([, def]) => `${def.method} ${def.path}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        'POST /api/admin/ota/campaign',
        'POST /api/admin/ota/campaign/:id/resume',
        'POST /api/admin/product/sn/:sn/rotate-secret',
        'PUT /api/admin/user',
        'POST /api/admin/user/:id/two-factor/reset',
      ]),
    );
    expect(shellApi.socket.stepUp).toBe(true);
  });

  for (const [name, def] of stepUpEndpoints) {
    it(`${name}: ${def.method} ${def.path} needs a recent confirmation`, async () => {
      await expireConfirmation();
      const refused = await callEndpoint(server, def, { token, body: def.body ? {} : undefined });
      expect([refused.status, (refused.body as { code: number }).code], JSON.stringify(refused.body)).toEqual([403, STEP_UP_REQUIRED]);
      expect(answerProblem(def.method, refused.url, refused.status, refused.body)).toBeUndefined();

      const confirmed = await server.api('POST', '/api/admin/user/step-up', { token, body: { password: ADMIN.password } });
      expect(confirmed.body.code).toBe(0);
      const through = await callEndpoint(server, def, { token, body: def.body ? {} : undefined });
      expect((through.body as { code: number }).code, JSON.stringify(through.body)).not.toBe(STEP_UP_REQUIRED);
    });
  }

  it('the shell socket refuses on its auth message without a recent confirmation', async () => {
    await expireConfirmation();
    const refused = await ShellClient.connect(server);
    refused.send({ type: 'auth', token });
    expect(await refused.next(['error'])).toMatchObject({ code: STEP_UP_REQUIRED, msg: 'Confirm it is you before this action' });

    await server.api('POST', '/api/admin/user/step-up', { token, body: { password: ADMIN.password } });
    const through = await ShellClient.connect(server);
    through.send({ type: 'auth', token });
    expect((await through.next(['ready', 'error'])).type).toBe('ready');
    through.send({ type: 'close' });
  });

  it('a wrong password is no confirmation', async () => {
    await expireConfirmation();
    const wrong = await server.api('POST', '/api/admin/user/step-up', { token, body: { password: 'Wrong#Pass1' } });
    expect(wrong.body.code).toBe(errors.STEP_UP_INVALID.code);
    const rotate = await server.api('POST', '/api/admin/product/sn/MW-X-0001/rotate-secret', { token });
    expect(rotate.body.code).toBe(STEP_UP_REQUIRED);
  });
});
