/**
 * What the trusted relay says it verified about an inbound mail, read from its
 * `Authentication-Results` header (RFC 8601): `authserv-id; method=result prop=value; …`.
 *
 * Only the topmost header whose authserv-id is the trusted relay's is read: headers are prepended
 * on the way in, so the topmost one is the last hop's, and anything below it (or with another
 * authserv-id) could have been written by the sender. The relay must itself remove headers that
 * arrive claiming its authserv-id (docs/deploy.md), as RFC 8601 asks of it.
 */
export interface RelayVerdict {
  spf: Result | undefined;
  dkim: Result[];
  dmarc: string | undefined;
}

/** A method's result and the domain it vouches for (`smtp.mailfrom` for SPF, `header.d` for DKIM), when given. */
interface Result {
  result: string;
  domain: string | undefined;
}

/** Header values may hold comments in parentheses, which carry no results. */
const uncomment = (value: string) => {
  let out = '';
  let depth = 0;
  for (const c of value) {
    if (c === '(') depth += 1;
    else if (c === ')' && depth > 0) depth -= 1;
    else if (depth === 0) out += c;
  }
  return out;
};

/** The trusted relay's verdict, or undefined when no header of that relay is present. */
export function relayVerdict(headerLines: ReadonlyArray<{ key: string; line: string }>, relay: string): RelayVerdict | undefined {
  for (const { key, line } of headerLines) {
    if (key !== 'authentication-results') continue;
    const value = uncomment(line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' '));
    const [id = '', ...clauses] = value.split(';').map((s) => s.trim());
    // The authserv-id may be followed by a version number.
    if (id.split(/\s+/)[0]!.toLowerCase() !== relay) continue;
    const verdict: RelayVerdict = { spf: undefined, dkim: [], dmarc: undefined };
    for (const clause of clauses) {
      const m = /^([a-z0-9-]+)\s*=\s*([a-z]+)/i.exec(clause);
      if (!m) continue;
      const method = m[1]!.toLowerCase();
      const result = m[2]!.toLowerCase();
      const prop = (name: string) => new RegExp(`(?:^|\\s)${name.replace('.', '\\.')}\\s*=\\s*"?([^\\s";]+)`, 'i').exec(clause)?.[1]?.toLowerCase();
      if (method === 'spf') verdict.spf ??= { result, domain: domainOf(prop('smtp.mailfrom') ?? prop('smtp.helo')) };
      else if (method === 'dkim') verdict.dkim.push({ result, domain: domainOf(prop('header.d') ?? prop('header.i')) });
      else if (method === 'dmarc') verdict.dmarc ??= result;
    }
    return verdict;
  }
  return undefined;
}

const domainOf = (value: string | undefined) => (value === undefined ? undefined : value.slice(value.lastIndexOf('@') + 1).replace(/\.$/, ''));

/** One domain vouches for another when they are the same or one is inside the other (relaxed alignment). */
const aligned = (vouched: string | undefined, sender: string) => vouched === undefined || vouched === sender || sender.endsWith(`.${vouched}`) || vouched.endsWith(`.${sender}`);

/**
 * Why the relay's verdict refuses a mail from `senderDomain`, or undefined when it passes: SPF or
 * DKIM must pass for the sender's own domain (a signature of the attacker's domain proves nothing
 * about the owner's address), and DMARC must not fail.
 */
export function verdictRefusal(verdict: RelayVerdict | undefined, senderDomain: string): string | undefined {
  if (!verdict) return 'no Authentication-Results from the trusted relay';
  if (verdict.dmarc === 'fail') return 'DMARC failed at the trusted relay';
  const passes = (r: Result | undefined) => r?.result === 'pass' && aligned(r.domain, senderDomain);
  if (!passes(verdict.spf) && !verdict.dkim.some(passes)) return 'neither SPF nor DKIM passed for the sender at the trusted relay';
  return undefined;
}
