import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppUserSim} from '@mowerline/fleet-sim';
import { createRng, startAppUsers, startFleet, type AppUsers, type Fleet } from '@mowerline/fleet-sim';
import { PROTOCOL_VERSION, type EndUserPage, type TicketDetail, type TicketPage } from '@mowerline/contract';
import { applyRunReport } from '../../src/tasks/ingest.service.ts';
import { brokerUrl, waitFor } from '../devices/fixtures.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../smtp.ts';
import { startTicketServer } from './fixtures.ts';

describe('simulated owners write to support about their mowers through the real app API', () => {
  let smtp: SmtpReceiver;
  let env: Awaited<ReturnType<typeof startTicketServer>>;
  let fleet: Fleet;
  let owners: AppUsers;
  let owner: AppUserSim;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    env = await startTicketServer(smtp);
    fleet = await startFleet({ count: 2, apiUrl: env.server.url, mqttUrl: brokerUrl(env.server), token: env.admin, snPrefix: 'FBK', extensions: () => [] });
    // Visits so rare that none happens during the test: the test drives the owner itself.
    owners = await startAppUsers({ apiUrl: env.server.url, gardens: fleet.gardens, pairingCodes: fleet.pairingCodes, adminToken: env.admin, visitEverySeconds: 1e6 });
    owner = owners.users[0]!;
    await waitFor(async () => {
      const res = await env.server.api<EndUserPage>('GET', '/api/admin/end-user?hasDevice=true&pageSize=100', { token: env.admin });
      return res.body.data.list.reduce((n, u) => n + u.deviceCount, 0) >= 2 || undefined;
    }, 20_000, 'mowers bound');
  });
  afterAll(async () => {
    await owners?.stop();
    await fleet?.stop();
    await env?.close();
    await smtp?.close();
  });

  it('files a ticket about the fault the mower raised, with a screenshot and the device snapshot', async () => {
    const sn = owner.plan.owns[0]!;
    const startedAt = Date.now() - 60_000;
    await applyRunReport(env.server.ctx.db, sn, {
      v: PROTOCOL_VERSION,
      runId: `sim-fault-${startedAt}`,
      seq: 1,
      ts: startedAt + 30_000,
      type: 'ended',
      result: 'failed',
      faultCode: 'BLADE_BLOCKED',
      areaM2: 40,
      durationS: 30,
      bladeOnS: 30,
      distanceM: 12,
      path: '',
      startedAt,
    }, new Date());
    await owner.signIn();
    // Seed 7 makes the screenshot roll (70 %) come up.
    const filed = await owner.fileFeedback(createRng(7));
    expect(filed).toMatchObject({ category: 'device', sn, status: 'new' });
    expect(filed!.title).toContain('BLADE_BLOCKED');
    expect(filed!.attachments).toHaveLength(1);
    expect(filed!.attachments[0]).toMatchObject({ mime: 'image/png' });

    const detail = await env.server.api<TicketDetail>('GET', `/api/admin/ticket/${filed!.id}`, { token: env.admin });
    expect(detail.body.data.device).toMatchObject({ sn });
    expect(detail.body.data.appVersion).toBe('3.4.1');
    expect(detail.body.data.os).toBe('Android 15');

    // The same fault is not reported twice.
    const again = await owner.fileFeedback(() => 0.99);
    expect(again).toBeUndefined();
  });

  it('answers when support waits for the customer, then rates the resolution', async () => {
    const list = await env.server.api<TicketPage>('GET', '/api/admin/ticket', { token: env.admin });
    const ticket = list.body.data.list.find((t) => t.user.email === owner.plan.email)!;
    const replied = await env.server.api('POST', `/api/admin/ticket/${ticket.id}/reply`, { token: env.admin, body: { body: 'Please clean the blade and tell us if it stops again.', internal: false } });
    expect(replied.body.code).toBe(0);
    const pending = await env.server.api('PUT', `/api/admin/ticket/${ticket.id}`, { token: env.admin, body: { status: 'pending_customer' } });
    expect(pending.body).toMatchObject({ code: 0, data: { status: 'pending_customer' } });
    expect(await owner.followUpFeedback(createRng(1))).toBe(1);
    let detail = await env.server.api<TicketDetail>('GET', `/api/admin/ticket/${ticket.id}`, { token: env.admin });
    expect(detail.body.data.entries.at(-1)).toMatchObject({ kind: 'customer' });
    // The customer's answer takes the ticket back to the agents.
    expect(detail.body.data.status).toBe('open');

    await env.server.api('PUT', `/api/admin/ticket/${ticket.id}`, { token: env.admin, body: { status: 'resolved' } });
    expect(await owner.followUpFeedback(createRng(1))).toBe(1);
    detail = await env.server.api<TicketDetail>('GET', `/api/admin/ticket/${ticket.id}`, { token: env.admin });
    expect(detail.body.data.rating?.score).toBeGreaterThanOrEqual(1);
    // Rated once: nothing more to do.
    expect(await owner.followUpFeedback(createRng(1))).toBe(0);
  });
});
