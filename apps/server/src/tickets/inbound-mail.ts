import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { AppError } from '../http/envelope.ts';
import { relayVerdict, verdictRefusal } from './mail-authentication.ts';
import type { ReplyAddresses } from './reply-address.ts';
import { stripQuoted } from './reply-address.ts';

/** Mailed answers one ticket takes an hour; a flood from the owner's (or a stolen) mailbox stops there. */
export const MAILS_PER_TICKET_HOUR = 20;

/** Largest inbound mail; a longer one is refused during DATA. */
const MAX_MAIL_BYTES = 10 * 1024 * 1024;

export interface InboundMail {
  ticketId: number;
  /** The header From address, lower-case. */
  from: string;
  /** The envelope sender (MAIL FROM), lower-case; '' for a bounce. */
  envelopeFrom: string;
  text: string;
}

export interface InboundListener {
  port: number;
  /** Mails threaded into tickets, and mails dropped (unsigned, forged, wrong sender, unauthenticated, over the limit, empty), by the reason logged. */
  stats: { threaded: number; dropped: number; reasons: Record<string, number> };
  close(): Promise<void>;
}

const addresses = (a: AddressObject | AddressObject[] | undefined) => (Array.isArray(a) ? a : a ? [a] : []).flatMap((o) => o.value.map((v) => v.address ?? ''));

/**
 * The inbound SMTP listener (`smtp-server` + `mailparser`): a mailed answer to a ticket's signed
 * reply address becomes a customer entry. Every mail is accepted at SMTP level, so the listener
 * tells a sender nothing about which addresses are real; an unsigned or forged recipient, a sender
 * that is not the ticket's user, a mail the trusted relay did not authenticate, or a mail with no
 * new text is dropped and logged.
 */
export async function startInboundListener(opts: {
  host: string;
  port: number;
  replies: ReplyAddresses;
  log: FastifyBaseLogger;
  /** The authserv-id whose Authentication-Results are believed (mail-authentication.ts); undefined = not checked. */
  trustedRelay?: string;
  /** Threads the text into the ticket as its user; refusals (closed ticket, wrong sender) throw. */
  thread(mail: InboundMail): Promise<void>;
}): Promise<InboundListener> {
  const stats = { threaded: 0, dropped: 0, reasons: {} as Record<string, number> };
  const drop = (reason: string, detail: Record<string, unknown>) => {
    stats.dropped += 1;
    stats.reasons[reason] = (stats.reasons[reason] ?? 0) + 1;
    opts.log.warn({ inboundMail: detail, reason }, `inbound mail dropped: ${reason}`);
  };

  async function handle(raw: Buffer, envelopeFrom: string, envelopeTo: string[]) {
    const mail = await simpleParser(raw);
    const from = addresses(mail.from)[0]?.toLowerCase() ?? '';
    const recipients = [...envelopeTo, ...addresses(mail.to), ...addresses(mail.cc)];
    const ticketId = recipients.map((r) => opts.replies.verify(r)).find((id) => id !== undefined);
    const detail = { from, envelopeFrom, to: envelopeTo, subject: mail.subject ?? '' };
    if (ticketId === undefined) {
      const signedLooking = recipients.some((r) => /^reply\+/i.test(r));
      return drop(signedLooking ? 'forged reply address' : 'no reply address', detail);
    }
    // Both senders must be one address: the header From is what a mail client shows, the envelope
    // sender is what the relay's SPF check vouched for.
    if (envelopeFrom !== from) return drop('envelope sender differs from header From', { ...detail, ticketId });
    if (opts.trustedRelay) {
      const refusal = verdictRefusal(relayVerdict(mail.headerLines, opts.trustedRelay), from.slice(from.lastIndexOf('@') + 1));
      if (refusal) return drop(refusal, { ...detail, ticketId });
    }
    const text = stripQuoted(mail.text ?? '');
    if (!text) return drop('no new text', { ...detail, ticketId });
    try {
      await opts.thread({ ticketId, from, envelopeFrom, text });
      stats.threaded += 1;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      drop(err.key, { ...detail, ticketId, ...err.params });
    }
  }

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: MAX_MAIL_BYTES,
    banner: 'Mowerline ticket replies',
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) {
          drop('too large', { to: session.envelope.rcptTo.map((r) => r.address) });
          callback(Object.assign(new Error('Message too large'), { responseCode: 552 }));
          return;
        }
        const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address.toLowerCase() : '';
        handle(Buffer.concat(chunks), mailFrom, session.envelope.rcptTo.map((r) => r.address))
          .then(() => callback())
          .catch((err: unknown) => {
            opts.log.error({ err }, 'inbound mail failed');
            callback(Object.assign(new Error('Temporary failure, try again later'), { responseCode: 451 }));
          });
      });
    },
  });
  server.on('error', (err) => opts.log.error({ err }, 'inbound SMTP listener error'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;
  opts.log.info(`inbound SMTP listener for ticket replies on ${opts.host}:${port}`);
  return { port, stats, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
