import { and, eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageKinds, type AppTicketDetail, type TicketDetail } from '@mowerline/contract';
import { emailLogs } from '../../src/email/email.sql.ts';
import { messages } from '../../src/messages/messages.sql.ts';
import type { TestServer } from '../harness.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../smtp.ts';
import { waitFor } from '../devices/fixtures.ts';
import { confirmedAppUser } from '../end-users/fixtures.ts';
import { inboundOf, startTicketServer } from './fixtures.ts';

describe('ticket mail: agent replies go out with a signed Reply-To, answers come back in', { timeout: 240_000 }, () => {
  let smtp: SmtpReceiver;
  let env: Awaited<ReturnType<typeof startTicketServer>>;
  let server: TestServer;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    // The inbound listener on an ephemeral port.
    env = await startTicketServer(smtp, { inboundSmtpEnabled: true, inboundSmtpPort: 0, inboundSmtpHost: '127.0.0.1', inboundMailDomain: 'replies.mowerline.test' });
    server = env.server;
  });
  afterAll(async () => {
    await env?.close();
    await smtp?.close();
  });

  /** Sends a mail to the inbound listener as a mail client would (the envelope sender is the header From unless given). */
  async function mailIn(from: string, to: string, text: string, envelopeFrom = from) {
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: inboundOf(server).port, secure: false, ignoreTLS: true });
    try {
      await transport.sendMail({ from, to, subject: 'Re: your ticket', text, envelope: { from: envelopeFrom, to } });
    } finally {
      transport.close();
    }
  }

  it('mails a public reply in the user’s language, logs it, and threads the mailed answer back (quote stripped)', async () => {
    const user = await confirmedAppUser(server, env.admin, { name: 'Li Wei', locale: 'zh-CN' });
    const t = (await server.api<AppTicketDetail>('POST', '/api/app/v1/feedback', { token: user.token, body: { category: 'device', title: 'Mower stops', description: 'near the hedge' } })).body.data;
    const assignees = (await server.api<Array<{ id: number; role: string }>>('GET', '/api/admin/ticket/assignees', { token: env.operator })).body.data;
    const op = assignees.find((a) => a.role === 'user')!;
    await server.api('PUT', `/api/admin/ticket/${t.id}`, { token: env.operator, body: { assigneeId: op.id } });
    await server.api('POST', `/api/admin/ticket/${t.id}/reply`, { token: env.operator, body: { body: 'INTERNAL-ONLY hint', internal: true } });
    await server.api('POST', `/api/admin/ticket/${t.id}/reply`, { token: env.operator, body: { body: 'Please check the boundary wire.', status: 'pending_customer' } });

    const mail = await smtp.waitFor((m) => m.to.includes(user.email) && m.subject.includes(`#${t.number}`));
    expect(mail.text).toContain('回复了您的反馈');
    expect(mail.text).toContain('Please check the boundary wire.');
    expect(mail.raw).not.toContain('INTERNAL-ONLY');
    const replyTo = /^Reply-To:\s*(.+)$/im.exec(mail.raw)?.[1]?.trim().replace(/^<|>$/g, '') ?? '';
    expect(replyTo).toMatch(new RegExp(`^reply\\+${t.id}\\.[0-9a-f]{32}@replies\\.mowerline\\.test$`));
    // The log row is written once the relay has answered, a moment after the receiver has the mail.
    const logged = await waitFor(async () => (await server.ctx.db.select().from(emailLogs).where(and(eq(emailLogs.to, user.email), eq(emailLogs.template, 'ticket-reply'))))[0], 30_000, 'email log row');
    expect(logged).toMatchObject({ status: 'sent', subject: `[#${t.number}] Mower stops` });

    await mailIn(user.email, replyTo, 'The wire was cut, fixed now.\n\nOn Mon, 23 Nov 2026 Mowerline wrote:\n> Please check the boundary wire.\n> INTERNAL?');
    expect(inboundOf(server).stats.threaded).toBe(1);
    const detail = (await server.api<TicketDetail>('GET', `/api/admin/ticket/${t.id}`, { token: env.operator })).body.data;
    const last = detail.entries[detail.entries.length - 1]!;
    expect(last).toMatchObject({ kind: 'customer', channel: 'mail', internal: false, body: 'The wire was cut, fixed now.' });
    // Pending the customer → open again; the assignee hears of it.
    expect(detail.status).toBe('open');
    const note = await server.ctx.db.select().from(messages).where(and(eq(messages.userId, op.id), eq(messages.kind, messageKinds.ticketCustomerReply)));
    expect(note).toHaveLength(1);
    const appView = (await server.api<AppTicketDetail>('GET', `/api/app/v1/feedback/${t.id}`, { token: user.token })).body.data;
    expect(appView.entries.map((e) => e.body)).toEqual(['Please check the boundary wire.', 'The wire was cut, fixed now.']);
  });

  it('drops and logs unsigned, forged and foreign-sender mail; the ticket is unchanged', async () => {
    const user = await confirmedAppUser(server, env.admin, { name: 'Ann' });
    const t = (await server.api<AppTicketDetail>('POST', '/api/app/v1/feedback', { token: user.token, body: { category: 'app', title: 'Crash', description: 'on start' } })).body.data;
    await server.api('POST', `/api/admin/ticket/${t.id}/reply`, { token: env.operator, body: { body: 'Which phone?' } });
    const mail = await smtp.waitFor((m) => m.to.includes(user.email) && m.subject.includes(`#${t.number}`));
    const replyTo = /^Reply-To:\s*(.+)$/im.exec(mail.raw)?.[1]?.trim().replace(/^<|>$/g, '') ?? '';
    const inbound = inboundOf(server);
    const dropped = inbound.stats.dropped;
    const threaded = inbound.stats.threaded;

    const forgedToken = replyTo.replace(/\.([0-9a-f]{32})@/, (_m, sig: string) => `.${sig.slice(0, 31)}${sig.endsWith('0') ? '1' : '0'}@`);
    const otherTicket = replyTo.replace(`reply+${t.id}.`, `reply+${t.id + 1}.`);
    await mailIn(user.email, forgedToken, 'forged signature');
    await mailIn(user.email, otherTicket, 'signature of another ticket');
    await mailIn(user.email, `support@replies.mowerline.test`, 'no reply address');
    await mailIn('mallory@example.test', replyTo, 'right address, wrong sender');
    await mailIn(user.email, replyTo, '> only a quote');

    expect(inbound.stats.dropped - dropped).toBe(5);
    expect(inbound.stats.threaded).toBe(threaded);
    const detail = (await server.api<TicketDetail>('GET', `/api/admin/ticket/${t.id}`, { token: env.operator })).body.data;
    expect(detail.entries.map((e) => e.kind)).toEqual(['agent']);
  });

  /** A ticket of a new user with an agent's reply mailed to them: the user and the ticket's reply address. */
  async function ticketWithReplyAddress(name: string) {
    const user = await confirmedAppUser(server, env.admin, { name });
    const t = (await server.api<AppTicketDetail>('POST', '/api/app/v1/feedback', { token: user.token, body: { category: 'app', title: `${name}'s ticket`, description: 'details' } })).body.data;
    await server.api('POST', `/api/admin/ticket/${t.id}/reply`, { token: env.operator, body: { body: 'Tell us more.' } });
    const mail = await smtp.waitFor((m) => m.to.includes(user.email) && m.subject.includes(`#${t.number}`));
    const replyTo = /^Reply-To:\s*(.+)$/im.exec(mail.raw)?.[1]?.trim().replace(/^<|>$/g, '') ?? '';
    return { user, t, replyTo };
  }

  const customerEntries = async (id: number) => (await server.api<TicketDetail>('GET', `/api/admin/ticket/${id}`, { token: env.operator })).body.data.entries.filter((e) => e.kind === 'customer');

  it('refuses a forged envelope sender and a header From that is not the owner, with the reply address right', async () => {
    const { user, t, replyTo } = await ticketWithReplyAddress('Bea');
    const inbound = inboundOf(server);
    const dropped = inbound.stats.dropped;
    const mismatched = inbound.stats.reasons['envelope sender differs from header From'] ?? 0;
    await mailIn(user.email, replyTo, 'header From forged by mallory', 'mallory@example.test');
    await mailIn('mallory@example.test', replyTo, 'envelope is the owner, header From is not', user.email);
    expect(inbound.stats.dropped - dropped).toBe(2);
    expect(inbound.stats.reasons['envelope sender differs from header From']! - mismatched).toBe(2);
    expect(await customerEntries(t.id)).toEqual([]);
    // The owner's own mail still threads.
    await mailIn(user.email, replyTo, 'from my own mailbox');
    expect((await customerEntries(t.id)).map((e) => e.body)).toEqual(['from my own mailbox']);
  });

  it('threads at most 20 mails an hour into one ticket; the rest are dropped and logged', async () => {
    const { user, t, replyTo } = await ticketWithReplyAddress('Cid');
    const other = await ticketWithReplyAddress('Dora');
    const inbound = inboundOf(server);
    const dropped = inbound.stats.dropped;
    const limitedBefore = inbound.stats.reasons.RATE_LIMITED ?? 0;
    for (let i = 1; i <= 25; i++) await mailIn(user.email, replyTo, `answer number ${i}`);
    const entries = await customerEntries(t.id);
    expect(entries).toHaveLength(20);
    expect(entries.map((e) => e.body)).toEqual(Array.from({ length: 20 }, (_, i) => `answer number ${i + 1}`));
    expect(inbound.stats.dropped - dropped).toBe(5);
    expect(inbound.stats.reasons.RATE_LIMITED! - limitedBefore).toBe(5);
    // The count is per ticket: another ticket still takes mail.
    await mailIn(other.user.email, other.replyTo, 'my first answer');
    expect((await customerEntries(other.t.id)).map((e) => e.body)).toEqual(['my first answer']);
  });
});
