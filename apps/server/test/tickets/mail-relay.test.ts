import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppTicketDetail, TicketDetail } from '@mowerline/contract';
import { relayVerdict, verdictRefusal } from '../../src/tickets/mail-authentication.ts';
import type { TestServer } from '../harness.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../smtp.ts';
import { confirmedAppUser } from '../end-users/fixtures.ts';
import { inboundOf, startTicketServer } from './fixtures.ts';

const RELAY = 'mx.relay.test';
const results = (value: string) => ({ key: 'authentication-results', line: `Authentication-Results: ${value}` });

describe('the trusted relay’s Authentication-Results', () => {
  it('reads only the topmost header of the trusted authserv-id, comments and folding aside', () => {
    const lines = [
      { key: 'received', line: 'Received: from mx.relay.test' },
      results('other.example; spf=pass smtp.mailfrom=ann@example.test'),
      results(`${RELAY} 1; spf=fail (sender not allowed) smtp.mailfrom=ann@example.test;\r\n\tdkim=none; dmarc=fail header.from=example.test`),
      results(`${RELAY}; spf=pass smtp.mailfrom=ann@example.test`),
    ];
    expect(relayVerdict(lines, RELAY)).toEqual({ spf: { result: 'fail', domain: 'example.test' }, dkim: [{ result: 'none', domain: undefined }], dmarc: 'fail' });
    expect(relayVerdict(lines.slice(0, 2), RELAY)).toBeUndefined();
  });

  it('passes SPF or DKIM for the sender’s domain, refuses a DMARC failure and a signature of another domain', () => {
    const verdict = (value: string) => relayVerdict([results(`${RELAY}; ${value}`)], RELAY);
    expect(verdictRefusal(verdict('spf=pass smtp.mailfrom=ann@example.test; dkim=none'), 'example.test')).toBeUndefined();
    expect(verdictRefusal(verdict('spf=softfail; dkim=pass header.d=mail.example.test'), 'mail.example.test')).toBeUndefined();
    expect(verdictRefusal(verdict('spf=fail; dkim=pass header.d=example.test'), 'example.test')).toBeUndefined();
    expect(verdictRefusal(verdict('spf=fail smtp.mailfrom=ann@example.test; dkim=pass header.d=attacker.test'), 'example.test')).toMatch(/neither SPF nor DKIM/);
    expect(verdictRefusal(verdict('spf=pass smtp.mailfrom=x@attacker.test'), 'example.test')).toMatch(/neither SPF nor DKIM/);
    expect(verdictRefusal(verdict('spf=pass; dkim=pass; dmarc=fail'), 'example.test')).toMatch(/DMARC/);
    expect(verdictRefusal(undefined, 'example.test')).toMatch(/no Authentication-Results/);
  });
});

describe('inbound mail behind a trusted relay (INBOUND_TRUSTED_RELAY)', { timeout: 240_000 }, () => {
  let smtp: SmtpReceiver;
  let env: Awaited<ReturnType<typeof startTicketServer>>;
  let server: TestServer;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    env = await startTicketServer(smtp, { inboundSmtpEnabled: true, inboundSmtpPort: 0, inboundSmtpHost: '127.0.0.1', inboundMailDomain: 'replies.mowerline.test', inboundTrustedRelay: RELAY });
    server = env.server;
  });
  afterAll(async () => {
    await env?.close();
    await smtp?.close();
  });

  /** A mail as the relay hands it on: its own Authentication-Results (and whatever the sender wrote) on top. */
  async function relayed(from: string, to: string, text: string, authResults: string[]) {
    const headers = [...authResults.map((v) => `Authentication-Results: ${v}`), `From: ${from}`, `To: ${to}`, 'Subject: Re: your ticket', 'Content-Type: text/plain; charset=utf-8'];
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: inboundOf(server).port, secure: false, ignoreTLS: true });
    try {
      await transport.sendMail({ envelope: { from, to }, raw: `${headers.join('\r\n')}\r\n\r\n${text}\r\n` });
    } finally {
      transport.close();
    }
  }

  it('threads a mail whose SPF passed at the relay; refuses spf=fail, a missing verdict, and a forged verdict of another authserv-id', async () => {
    const user = await confirmedAppUser(server, env.admin, { name: 'Eve' });
    const domain = user.email.split('@')[1]!;
    const t = (await server.api<AppTicketDetail>('POST', '/api/app/v1/feedback', { token: user.token, body: { category: 'app', title: 'Relay', description: 'checks' } })).body.data;
    await server.api('POST', `/api/admin/ticket/${t.id}/reply`, { token: env.operator, body: { body: 'Tell us more.' } });
    const mail = await smtp.waitFor((m) => m.to.includes(user.email) && m.subject.includes(`#${t.number}`));
    const replyTo = /^Reply-To:\s*(.+)$/im.exec(mail.raw)?.[1]?.trim().replace(/^<|>$/g, '') ?? '';
    const inbound = inboundOf(server);

    await relayed(user.email, replyTo, 'spf failed', [`${RELAY}; spf=fail smtp.mailfrom=${user.email}; dkim=none`]);
    await relayed(user.email, replyTo, 'no verdict at all', []);
    // The sender's own "pass" under another authserv-id, above the relay's real "fail": ignored.
    await relayed(user.email, replyTo, 'forged verdict', [`evil.example; spf=pass smtp.mailfrom=${user.email}; dkim=pass header.d=${domain}`, `${RELAY}; spf=fail smtp.mailfrom=${user.email}`]);
    // The sender's "pass" under the relay's own id, below the relay's topmost header: ignored too.
    await relayed(user.email, replyTo, 'forged verdict below', [`${RELAY}; spf=softfail smtp.mailfrom=${user.email}`, `${RELAY}; spf=pass smtp.mailfrom=${user.email}`]);
    await relayed(user.email, replyTo, 'dmarc failed', [`${RELAY}; spf=pass smtp.mailfrom=${user.email}; dmarc=fail header.from=${domain}`]);
    expect(inbound.stats.threaded).toBe(0);
    expect(inbound.stats.dropped).toBe(5);
    expect(inbound.stats.reasons).toEqual({
      'neither SPF nor DKIM passed for the sender at the trusted relay': 3,
      'no Authentication-Results from the trusted relay': 1,
      'DMARC failed at the trusted relay': 1,
    });

    await relayed(user.email, replyTo, 'spf passed', [`${RELAY}; spf=pass smtp.mailfrom=${user.email}; dkim=none`]);
    await relayed(user.email, replyTo, 'dkim passed', [`${RELAY.toUpperCase()}; spf=softfail; dkim=pass header.d=${domain}; dmarc=pass`]);
    expect(inbound.stats.threaded).toBe(2);
    const detail = (await server.api<TicketDetail>('GET', `/api/admin/ticket/${t.id}`, { token: env.operator })).body.data;
    expect(detail.entries.filter((e) => e.kind === 'customer').map((e) => e.body)).toEqual(['spf passed', 'dkim passed']);
  });
});
