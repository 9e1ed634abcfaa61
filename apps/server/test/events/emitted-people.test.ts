import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventTypes, type EventTypeName } from '@mowerline/contract';
import { appUsers } from '../../src/end-users/end-users.sql.ts';
import { eraseDueAccounts } from '../../src/end-users/admin.service.ts';
import { events } from '../../src/events/events.sql.ts';
import { recordSlaBreaches } from '../../src/tickets/sla-breaches.ts';
import { closeExpired } from '../../src/tickets/tickets.service.ts';
import { tickets } from '../../src/tickets/tickets.sql.ts';
import type { TestServer } from '../harness.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../smtp.ts';
import { addStaff } from '../auth/fixtures.ts';
import { ownerWithMower, startTicketServer } from '../tickets/fixtures.ts';
import { PEOPLE_EVENT_TYPES } from './emitted-types.ts';

/**
 * The events of tickets, app accounts and their mowers, staff accounts and sign-in security,
 * emitted where the change happens through the real API, each valid against its schema.
 */
describe('events of people: tickets, owners, staff and security', { timeout: 240_000 }, () => {
  let smtp: SmtpReceiver;
  let env: Awaited<ReturnType<typeof startTicketServer>>;
  let server: TestServer;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    env = await startTicketServer(smtp, { lockoutAfterFailures: 2, captchaAfterFailures: 50 });
    server = env.server;
  });
  afterAll(async () => {
    await env?.close();
    await smtp?.close();
  });

  const ofSubject = async (subject: string) => server.ctx.db.select().from(events).where(eq(events.subject, subject)).orderBy(events.id);
  const ok = async (res: Promise<{ body: { code: number } }>) => expect((await res).body, 'answer').toMatchObject({ code: 0 });

  it('writes a ticket’s life: created, replies both ways, status changes, an SLA breach once, and the close after the reopen window', async () => {
    const owner = await ownerWithMower(server, env.admin, 'Eve');
    const filed = await server.api<{ id: number }>('POST', '/api/app/v1/feedback', { token: owner.token, body: { category: 'device', title: 'Stuck', description: 'It stops.', sn: owner.sn } });
    const id = filed.body.data.id;
    const subject = `ticket:${id}`;
    await ok(server.api('POST', `/api/admin/ticket/${id}/reply`, { token: env.admin, body: { body: 'Try this.', internal: false, status: 'pending_customer' } }));
    await ok(server.api('POST', `/api/app/v1/feedback/${id}/reply`, { token: owner.token, body: { body: 'Still stuck.' } }));
    await server.ctx.db.update(tickets).set({ resolutionDue: new Date(Date.now() - 60_000) }).where(eq(tickets.id, id));
    expect(await recordSlaBreaches(server.ctx.db)).toBeGreaterThanOrEqual(1);
    // Told once: the same breach is not written again.
    await recordSlaBreaches(server.ctx.db);
    await ok(server.api('PUT', `/api/admin/ticket/${id}`, { token: env.admin, body: { status: 'resolved' } }));
    await server.ctx.db.update(tickets).set({ resolvedAt: new Date(Date.now() - 30 * 86_400_000) }).where(eq(tickets.id, id));
    expect(await closeExpired(server.ctx.db)).toBeGreaterThanOrEqual(1);

    const life = await ofSubject(subject);
    expect(life.map((e) => e.type)).toEqual([
      'ticket.created',
      'ticket.replied',
      'ticket.status_changed',
      'ticket.replied',
      'ticket.status_changed',
      'ticket.sla_breached',
      'ticket.status_changed',
      'ticket.status_changed',
    ]);
    expect(life.map((e) => e.payload)).toEqual([
      expect.objectContaining({ ticketId: id, title: 'Stuck', sn: owner.sn, userName: 'Eve' }),
      expect.objectContaining({ by: 'staff', channel: 'console', internal: false }),
      expect.objectContaining({ from: 'new', to: 'pending_customer', via: 'reply' }),
      expect.objectContaining({ by: 'customer', channel: 'app', author: 'Eve' }),
      expect.objectContaining({ from: 'pending_customer', to: 'open', via: 'reply' }),
      expect.objectContaining({ clock: 'resolution' }),
      expect.objectContaining({ from: 'open', to: 'resolved', via: 'update' }),
      expect.objectContaining({ from: 'resolved', to: 'closed', via: 'expiry', actor: 'system' }),
    ]);
  });

  it('writes an owner’s account and mower: registered, bound, unbound, and deleted with the erasure', async () => {
    const owner = await ownerWithMower(server, env.admin, 'Finn');
    await ok(server.api('POST', `/api/app/v1/devices/${owner.sn}/unbind`, { token: owner.token }));
    const [registered] = await ofSubject(`end-user:${owner.id}`);
    expect(registered).toMatchObject({ type: 'end_user.registered', payload: { userId: owner.id } });
    const owners = (await ofSubject(owner.sn)).filter((e) => e.type === 'device.bound' || e.type === 'device.unbound');
    expect(owners.map((e) => [e.type, (e.payload as { userId: number }).userId])).toEqual([
      ['device.bound', owner.id],
      ['device.unbound', owner.id],
    ]);

    await server.ctx.db.update(appUsers).set({ status: 'deletion_pending', deletionAt: new Date(Date.now() - 1000) }).where(eq(appUsers.id, owner.id));
    expect(await eraseDueAccounts(server.ctx, new Date())).toContain(owner.id);
    expect((await ofSubject(`end-user:${owner.id}`)).map((e) => e.type)).toEqual(['end_user.registered', 'end_user.deleted']);
  });

  it('writes staff changes and refused sign-ins, and the lock-out they cause', async () => {
    const username = `evt${Date.now().toString(36)}`;
    const created = await addStaff(server, env.admin, username);
    await ok(server.api('PUT', '/api/admin/user', { token: env.admin, body: { id: created.id, name: 'Renamed' } }));
    expect((await ofSubject(`staff:${created.id}`)).map((e) => [e.type, (e.payload as { change: string }).change])).toEqual([
      ['staff.changed', 'created'],
      ['staff.changed', 'updated'],
    ]);

    for (let i = 0; i < 2; i++) {
      const refused = await server.api('POST', '/api/admin/user/login', { body: { username, password: 'wrong-Passw0rd!' } });
      expect(refused.body).not.toMatchObject({ code: 0 });
    }
    const security = await ofSubject(`sign-in:${username}`);
    expect(security.map((e) => e.type)).toEqual(['security.sign_in_failed', 'security.sign_in_failed', 'security.locked_out']);
    expect(security[2]!.payload).toMatchObject({ username, minutes: expect.any(Number) });
  });

  it('has emitted each of its types, each payload valid against its schema and version', async () => {
    const rows = await server.ctx.db.select().from(events).where(sql`${events.type} = any(${sql.param([...PEOPLE_EVENT_TYPES])}::text[])`);
    expect([...new Set(rows.map((e) => e.type))].sort()).toEqual([...PEOPLE_EVENT_TYPES].sort());
    for (const e of rows) {
      const def = eventTypes[e.type as EventTypeName];
      expect(e.version).toBe(def.version);
      expect(def.payload.safeParse(e.payload).success, `${e.type} ${JSON.stringify(e.payload)}`).toBe(true);
    }
  });
});
