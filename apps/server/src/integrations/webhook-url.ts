import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may never reach unless WEBHOOK_ALLOW_PRIVATE: loopback, private, shared
 * (CGNAT), link-local (with the cloud metadata service 169.254.169.254 and fd00:ec2::254),
 * unspecified, benchmarking, multicast and reserved ranges, in IPv4 and IPv6.
 */
const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['64:ff9b::', 96],
  ['100::', 64],
] as const) {
  blocked.addSubnet(net, bits, 'ipv6');
}

/** Whether an address is in a refused range; an IPv4-mapped IPv6 address is judged as its IPv4 address. */
export function isRefusedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').split('%')[0]!;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  const family = isIP(bare);
  if (family === 0) return true;
  return blocked.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

export interface UrlRules {
  allowHttp: boolean;
  allowPrivate: boolean;
}

/** Where a delivery connects: the checked address, never a second DNS answer (no rebinding). */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export type Resolver = (host: string) => Promise<Array<{ address: string; family: number }>>;
const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/**
 * Checks a webhook URL and resolves it: `https` only (or `http` with WEBHOOK_ALLOW_HTTP), no
 * credentials in it, and every address its name resolves to outside the refused ranges (unless
 * WEBHOOK_ALLOW_PRIVATE). Answers the reason it is refused, or the address to connect to. Run at
 * creation and again before every delivery attempt.
 */
export async function checkWebhookUrl(raw: string, rules: UrlRules, resolve: Resolver = systemResolver): Promise<{ refused: string } | CheckedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { refused: 'not a URL' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && rules.allowHttp)) return { refused: rules.allowHttp ? 'http or https only' : 'https only' };
  if (url.username || url.password) return { refused: 'no credentials in the URL' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      return { refused: `the name ${host} does not resolve` };
    }
  }
  if (addresses.length === 0) return { refused: `the name ${host} does not resolve` };
  // Every answer is checked: a name with one public and one private address is refused.
  if (!rules.allowPrivate) {
    const bad = addresses.find((a) => isRefusedAddress(a.address));
    if (bad) return { refused: `${host} resolves to a private, loopback, link-local or metadata address (${bad.address})` };
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
