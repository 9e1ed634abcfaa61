import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One mail as a real SMTP server received it, with its text decoded for assertions. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  raw: string;
}

export interface SmtpReceiver {
  /** `smtp://127.0.0.1:<port>`, for the server's `smtpUrl`. */
  url: string;
  mails: ReceivedMail[];
  /** Resolves with the first mail (already received or arriving later) that matches. */
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** A real SMTP server on a free port that keeps every mail it is given. */
export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const listeners = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        mails.push({ ...parseMail(raw), from, to: session.envelope.rcptTo.map((r) => r.address), raw });
        for (const listener of listeners) listener();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitFor(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = mails.find(match);
          if (!found) return;
          clearTimeout(timer);
          listeners.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no matching mail among ${mails.length} received`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

function splitPart(source: string): Part {
  const cut = source.search(/\r?\n\r?\n/);
  const head = cut < 0 ? source : source.slice(0, cut);
  const body = cut < 0 ? '' : source.slice(cut).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** RFC 2047 encoded words (`=?UTF-8?B?...?=`, `=?UTF-8?Q?...?=`); adjacent words join byte-wise. */
function decodeHeader(value: string): string {
  const tokens = value.split(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)/);
  let out = '';
  let pending: Buffer[] = [];
  const flush = () => {
    out += Buffer.concat(pending).toString('utf8');
    pending = [];
  };
  tokens.forEach((token, i) => {
    const word = /^=\?[^?]+\?([BbQq])\?([^?]*)\?=$/.exec(token);
    if (word) {
      const [, enc, data = ''] = word;
      pending.push(enc!.toUpperCase() === 'B' ? Buffer.from(data, 'base64') : qpBytes(data.replace(/_/g, ' ')));
      return;
    }
    const betweenWords = /^\s*$/.test(token) && i > 0 && i < tokens.length - 1;
    if (betweenWords && pending.length > 0) return;
    flush();
    out += token;
  });
  flush();
  return out;
}

function qpBytes(text: string): Buffer {
  return Buffer.from(text.replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return qpBytes(part.body.replace(/=\r?\n/g, '')).toString('utf8');
  return part.body;
}

/** Walks (possibly nested) multipart bodies and keeps the first text/plain and text/html. */
function collectBodies(part: Part, found: { text: string; html: string }) {
  const type = part.headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    const sections = part.body.split(`--${boundary}`).slice(1);
    for (const section of sections) {
      if (section.startsWith('--')) break;
      collectBodies(splitPart(section.replace(/^\r?\n/, '')), found);
    }
    return;
  }
  if (/^text\/html/i.test(type)) found.html ||= decodeBody(part);
  else if (/^text\/plain/i.test(type)) found.text ||= decodeBody(part);
}

function parseMail(raw: string): Pick<ReceivedMail, 'subject' | 'text' | 'html'> {
  const root = splitPart(raw);
  const found = { text: '', html: '' };
  collectBodies(root, found);
  return { subject: decodeHeader(root.headers.get('subject') ?? ''), ...found };
}
