import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The per-ticket reply address set as Reply-To on every mail about a ticket:
 * `reply+<ticketId>.<signature>@<INBOUND_MAIL_DOMAIN>`. The signature is an HMAC of the ticket id
 * under a key derived from the server secret, in lower-case hex (mail systems may fold the case of
 * a local part), 128 bits. Only a mail to a signed address threads into a ticket; anything else is
 * dropped, so nobody can add to a ticket by guessing its number.
 */
export interface ReplyAddresses {
  address(ticketId: number): string;
  /** The ticket id a recipient address names, when its signature is right; else undefined. */
  verify(recipient: string): number | undefined;
}

const SIGNATURE_HEX = 32;

export function replyAddresses(serverSecret: string, domain: string): ReplyAddresses {
  const key = createHmac('sha256', serverSecret).update('mowerline ticket reply address').digest();
  const sign = (ticketId: number) => createHmac('sha256', key).update(`ticket:${ticketId}`).digest('hex').slice(0, SIGNATURE_HEX);
  return {
    address: (ticketId) => `reply+${ticketId}.${sign(ticketId)}@${domain}`,
    verify(recipient) {
      const m = /^reply\+(\d{1,10})\.([0-9a-f]{32})@/i.exec(recipient.trim());
      if (!m) return undefined;
      const id = Number(m[1]);
      if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return undefined;
      const given = Buffer.from(m[2]!.toLowerCase(), 'utf8');
      const expected = Buffer.from(sign(id), 'utf8');
      return timingSafeEqual(given, expected) ? id : undefined;
    },
  };
}

/**
 * The new text of a mailed answer: what comes before the quoted mail. Stops at the first quote
 * marker (`>` lines, "On … wrote:", "在 … 写道：", an "Original Message" rule, an Outlook header
 * block) and drops trailing blank lines and a signature separator.
 */
export function stripQuoted(text: string): string {
  const out: string[] = [];
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const t = line.trim();
    if (
      t.startsWith('>') ||
      /^On .{1,200} wrote:$/i.test(t) ||
      /^在.{1,200}写道[:：]$/.test(t) ||
      /^-{2,}\s*(Original Message|原始邮件)\s*-{2,}$/i.test(t) ||
      /^_{10,}$/.test(t) ||
      (/^(From|发件人)\s*[:：]/i.test(t) && out.length > 0 && out[out.length - 1]!.trim() === '')
    ) {
      break;
    }
    if (t === '--' || t === '-- ') break;
    out.push(line);
  }
  return out.join('\n').trim().slice(0, 10_000);
}
