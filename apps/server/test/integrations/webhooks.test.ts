import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook as Verifier } from 'standardwebhooks';
import { eq } from 'drizzle-orm';
import { errors, eventTypes, type Page, type Webhook, type WebhookDelivery } from '@mowerline/contract';
import { emit } from '../../src/events/emit.ts';
import { webhooks } from '../../src/integrations/integrations.sql.ts';
import { staffUsers } from '../../src/staff/staff.sql.ts';
import { startServer, type TestServer } from '../harness.ts';
import { createModel, registerSn, uniqueSn, waitFor } from '../devices/fixtures.ts';
import { emitDeviceFlagged } from '../../src/gateway/device-flag.ts';
import { eventDeliveries } from '../../src/events/events.sql.ts';
import { startReceiver } from './receiver.ts';
import { events } from '../../src/events/events.sql.ts';

/**
 * Webhooks against a local receiver (WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_PRIVATE on): signed per
 * Standard Webhooks (checked with the `standardwebhooks` library), retried on the schedule with the
 * same message id, and the secret rotated with an overlap. The sender's clock is the test's.
 */
describe('webhooks', () => {
  let server: TestServer;
  let admin: string;
  let now = Date.now();
  const receiver = { current: undefined as Awaited<ReturnType<typeof startReceiver>> | undefined };

  beforeAll(async () => {
    server = await startServer({ config: { webhookAllowHttp: true, webhookAllowPrivate: true, webhookClock: () => new Date(now) } });
    admin = await server.login();
  });
  afterAll(async () => {
    await server?.close();
    await receiver.current?.close();
  });

  async function createHook(url: string, events: string[]) {
    const res = await server.api<{ id: number; secret: string }>('POST', '/api/admin/webhook', { token: admin, body: { url, events, description: 'warranty' } });
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 0 });
    return res.body.data;
  }
  const deliveries = async (id: number) => (await server.api<Page<WebhookDelivery>>('GET', `/api/admin/webhook/${id}/delivery`, { token: admin })).body.data;

  it('sends a signed test event that standardwebhooks verifies, and logs it with its headers', async () => {
    const rx = (receiver.current = await startReceiver([200]));
    const hook = await createHook(rx.url, ['*']);
    expect(hook.secret).toMatch(/^whsec_/);
    const sent = await server.api<{ deliveryId: number }>('POST', `/api/admin/webhook/${hook.id}/test`, { token: admin });
    expect(sent.body.code).toBe(0);
    const got = await waitFor(() => rx.received[0], 10_000, 'the test event');
    const payload = new Verifier(hook.secret).verify(got.body, got.headers as Record<string, string>) as { type: string; timestamp: string; data: { webhookId: number } };
    expect(payload).toMatchObject({ type: 'webhook.test', data: { webhookId: hook.id } });
    const log = await waitFor(async () => (await deliveries(hook.id)).list.find((d) => d.status === 'succeeded'), 10_000, 'the logged delivery');
    expect(log).toMatchObject({ id: sent.body.data.deliveryId, attempts: 1, responseStatus: 200, responseExcerpt: 'thanks', eventType: 'webhook.test' });
    expect(log.requestHeaders['webhook-signature']).toBe(got.headers['webhook-signature']);
    expect(log.requestHeaders['webhook-id']).toBe(got.headers['webhook-id']);
    await server.api('DELETE', `/api/admin/webhook/${hook.id}`, { token: admin });
  });

  it('retries a catalogue event after failing twice: same message id, on the backoff schedule, then success', async () => {
    const rx = await startReceiver([500, 503, 204]);
    try {
      const hook = await createHook(rx.url, ['device.event.raised']);
      const sn = 'MW-HOOK-0001';
      await server.database.db.transaction((tx) =>
        emit(
          tx,
          { type: 'device.state_changed', subject: sn, payload: { sn, from: 'idle', to: 'mowing', at: new Date().toISOString() } },
          { type: 'device.event.raised', subject: sn, payload: { sn, eventId: 7, code: 'E101', severity: 'major', message: 'blade stuck', at: new Date().toISOString() } },
        ),
      );
      await waitFor(() => rx.received.length === 1, 15_000, 'the first attempt');
      const first = rx.received[0]!;
      // Verified while the timestamp is current (the library refuses one more than 5 minutes off).
      expect(new Verifier(hook.secret).verify(first.body, first.headers as Record<string, string>)).toMatchObject({ type: 'device.event.raised', data: { sn, code: 'E101' } });
      let log = await waitFor(async () => (await deliveries(hook.id)).list.find((d) => d.attempts === 1), 10_000, 'the first failure');
      expect(log).toMatchObject({ status: 'pending', responseStatus: 500, error: 'HTTP 500' });
      expect(Date.parse(log.nextAt!) - now).toBe(5_000);
      now += 5_000;
      await waitFor(() => rx.received.length === 2, 10_000, 'the second attempt');
      log = await waitFor(async () => (await deliveries(hook.id)).list.find((d) => d.attempts === 2), 10_000, 'the second failure');
      expect(Date.parse(log.nextAt!) - now).toBe(300_000);
      now += 300_000;
      await waitFor(() => rx.received.length === 3, 10_000, 'the third attempt');
      log = await waitFor(async () => (await deliveries(hook.id)).list.find((d) => d.status === 'succeeded'), 10_000, 'the success');
      expect(log).toMatchObject({ attempts: 3, responseStatus: 204, nextAt: null });
      const ids = rx.received.map((r) => r.headers['webhook-id']);
      expect(new Set(ids).size).toBe(1);
      expect(ids[0]).toBe(log.messageId);
      const stamps = rx.received.map((r) => Number(r.headers['webhook-timestamp']));
      expect(stamps[1]! - stamps[0]!).toBeGreaterThanOrEqual(5);
      expect(stamps[2]! - stamps[1]!).toBeGreaterThanOrEqual(300);
      // Only the subscribed type was queued.
      expect((await deliveries(hook.id)).total).toBe(1);
      expect(rx.received.every((r) => JSON.parse(r.body).type === 'device.event.raised')).toBe(true);
      await server.api('DELETE', `/api/admin/webhook/${hook.id}`, { token: admin });
    } finally {
      await rx.close();
    }
  });

  it('narrows device events to the mowers of its device groups, and refuses an unknown group', async () => {
    const rx = await startReceiver([200]);
    try {
      now = Date.now();
      const modelId = await createModel(server, admin);
      const [inside, outside] = [uniqueSn('WHG'), uniqueSn('WHG')];
      for (const sn of [inside, outside]) await registerSn(server, admin, sn, modelId);
      const group = await server.api<{ id: number }>('POST', '/api/admin/device-group', { token: admin, body: { name: `hooks-${inside}`, kind: 'static', sns: [inside] } });
      expect(group.body, JSON.stringify(group.body)).toMatchObject({ code: 0 });
      const unknown = await server.api('POST', '/api/admin/webhook', { token: admin, body: { url: rx.url, events: ['*'], groupIds: [999_999] } });
      expect(unknown.body).toMatchObject({ code: errors.GROUP_NOT_FOUND.code });
      const created = await server.api<{ id: number }>('POST', '/api/admin/webhook', { token: admin, body: { url: rx.url, events: ['device.flagged'], groupIds: [group.body.data.id] } });
      const hookId = created.body.data.id;
      expect((await server.api<Webhook>('GET', `/api/admin/webhook/${hookId}`, { token: admin })).body.data.groupIds).toEqual([group.body.data.id]);
      for (const sn of [outside, inside]) await emitDeviceFlagged(server.database.db, sn, { rate: 500, limit: 10 }, { warn: () => undefined });
      // Both events handled by the webhooks' subscriber: only the member's was queued.
      await waitFor(async () => ((await server.database.db.select().from(eventDeliveries).where(eq(eventDeliveries.subscriber, 'webhooks'))).length === 0 ? true : undefined), 15_000, 'both events handled');
      await waitFor(() => rx.received.length === 1, 15_000, 'the member mower’s event');
      expect(JSON.parse(rx.received[0]!.body).data).toMatchObject({ sn: inside });
      expect((await deliveries(hookId)).total).toBe(1);
      await server.api('DELETE', `/api/admin/webhook/${hookId}`, { token: admin });
    } finally {
      await rx.close();
    }
  });

  it('rotates the secret with an overlap: both secrets sign for a day', async () => {
    // The verifier checks the signed timestamp against the real clock: the earlier tests moved the server's on.
    now = Date.now();
    const rx = await startReceiver([200]);
    try {
      const hook = await createHook(rx.url, ['*']);
      const rotated = await server.api<{ id: number; secret?: string }>('PUT', `/api/admin/webhook/${hook.id}`, { token: admin, body: { rotateSecret: true } });
      const fresh = rotated.body.data.secret!;
      expect(fresh).toMatch(/^whsec_/);
      expect(fresh).not.toBe(hook.secret);
      const shown = (await server.api<Webhook>('GET', `/api/admin/webhook/${hook.id}`, { token: admin })).body.data;
      expect(Date.parse(shown.previousSecretUntil!) - now).toBe(86_400_000);
      await server.api('POST', `/api/admin/webhook/${hook.id}/test`, { token: admin });
      const got = await waitFor(() => rx.received[0], 10_000, 'the test event');
      expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(2);
      for (const secret of [fresh, hook.secret]) expect(new Verifier(secret).verify(got.body, got.headers as Record<string, string>)).toMatchObject({ type: 'webhook.test' });
      await server.api('DELETE', `/api/admin/webhook/${hook.id}`, { token: admin });
    } finally {
      await rx.close();
    }
  });

  it('retries a failed delivery by hand', async () => {
    const rx = await startReceiver([500, 200]);
    try {
      const hook = await createHook(rx.url, ['*']);
      const { deliveryId } = (await server.api<{ deliveryId: number }>('POST', `/api/admin/webhook/${hook.id}/test`, { token: admin })).body.data;
      await waitFor(async () => (await deliveries(hook.id)).list.find((d) => d.attempts === 1), 10_000, 'the failure');
      const retried = await server.api('POST', `/api/admin/webhook/delivery/${deliveryId}/retry`, { token: admin });
      expect(retried.body.code).toBe(0);
      const log = await waitFor(async () => (await deliveries(hook.id)).list.find((d) => d.status === 'succeeded'), 10_000, 'the retried success');
      expect(log.attempts).toBe(2);
      expect((await server.api('POST', '/api/admin/webhook/delivery/999999/retry', { token: admin })).body.code).toBe(40004);
      await server.api('DELETE', `/api/admin/webhook/${hook.id}`, { token: admin });
    } finally {
      await rx.close();
    }
  });

  it('switches off a webhook failing for three days, then mails and notifies the admins', async () => {
    const rx = await startReceiver([500]);
    try {
      const hook = await createHook(rx.url, ['*']);
      await server.database.db.update(webhooks).set({ failingSince: null }).where(eq(webhooks.id, hook.id));
      await server.database.db.update(staffUsers).set({ email: 'admin@mowerline.test' }).where(eq(staffUsers.username, 'admin'));
      await server.api('POST', `/api/admin/webhook/${hook.id}/test`, { token: admin });
      await waitFor(async () => (await server.api<Webhook>('GET', `/api/admin/webhook/${hook.id}`, { token: admin })).body.data.failingSince, 10_000, 'the failure streak');
      now += 3 * 86_400_000;
      await server.api('POST', `/api/admin/webhook/${hook.id}/test`, { token: admin });
      const off = await waitFor(async () => {
        const w = (await server.api<Webhook>('GET', `/api/admin/webhook/${hook.id}`, { token: admin })).body.data;
        return !w.enabled && w;
      }, 10_000, 'the webhook switched off');
      expect(off.disabledReason).toBe('failing');
      // The switch-off is an event; the bell tells the admins from it.
      const [event] = await server.database.db.select().from(events).where(eq(events.subject, `webhook:${hook.id}`));
      expect(event).toMatchObject({ type: 'webhook.disabled', payload: { webhookId: hook.id, url: rx.url } });
      expect(eventTypes['webhook.disabled'].payload.safeParse(event!.payload).success).toBe(true);
      const mails = await waitFor(async () => {
        const list = (await server.api<Page<{ template: string; to: string }>>('GET', '/api/admin/system/email-log?template=webhook-disabled', { token: admin })).body.data.list;
        return list.length > 0 && list;
      }, 10_000, 'the mail');
      expect(mails[0]).toMatchObject({ template: 'webhook-disabled', to: 'admin@mowerline.test' });
      const notices = await server.api<Page<{ title: string; content: string }>>('GET', '/api/admin/message/list?type=notice', { token: admin, lang: 'en-US' });
      expect(JSON.stringify(notices.body.data)).toContain('Webhook disabled');
      // Enabling again clears the streak.
      await server.api('PUT', `/api/admin/webhook/${hook.id}`, { token: admin, body: { enabled: true } });
      const back = (await server.api<Webhook>('GET', `/api/admin/webhook/${hook.id}`, { token: admin })).body.data;
      expect(back).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
      await server.api('DELETE', `/api/admin/webhook/${hook.id}`, { token: admin });
    } finally {
      await rx.close();
    }
  });
});
