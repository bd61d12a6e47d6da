import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/**
 * The guard against webhook targets on private networks (SSRF). A URL is checked once when the webhook is added
 * and again before every delivery; the delivery then connects to the address returned here, so a DNS answer that
 * changes between the check and the connection (rebinding) cannot redirect it.
 */

/** All addresses a hostname resolves to (IPv4 and IPv6), as strings. */
export type Resolver = (hostname: string) => Promise<string[]>;

// verbatim: the first answer is the one pinned, so keep the resolver's own order rather than Node's reordering.
const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

export class AddressRefused extends Error {
  override name = 'AddressRefused';
}

// ipaddr.js calls every IPv6 address it has no name for 'unicast', including the deprecated IPv4-compatible
// block ::/96 (::7f00:1 embeds 127.0.0.1) and blocks IANA never allocated (1::, 4000::, e000::). Only 2000::/3
// is globally routable unicast, so anything outside it is refused.
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * 'allowed' only for globally routable unicast; otherwise the range name (e.g. 'loopback', 'private', 'linkLocal',
 * 'carrierGradeNat', 'multicast', 'unspecified', 'reserved', 'uniqueLocal', ...). IPv4-mapped IPv6 is judged as the
 * IPv4 it carries.
 */
export function classifyAddress(ip: string): { allowed: boolean; range: string } {
  if (!ipaddr.isValid(ip)) return { allowed: false, range: 'invalid' };
  let address = ipaddr.parse(ip);
  // The kernel delivers ::ffff:a.b.c.d to the IPv4 host it carries, so only that IPv4 matters.
  if (address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress()) address = address.toIPv4Address();
  // Every named range is refused, including 6to4, Teredo and NAT64 (rfc6052): each can embed a private IPv4.
  const range: string = address.range();
  if (range !== 'unicast') return { allowed: false, range };
  if (address instanceof ipaddr.IPv6) {
    if (address.match(IPV4_COMPATIBLE)) return { allowed: false, range: 'ipv4Compatible' };
    if (!address.match(GLOBAL_UNICAST_V6)) return { allowed: false, range: 'reserved' };
  }
  return { allowed: true, range };
}

export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

const REFUSAL = 'private, loopback and link-local targets are refused';

/**
 * Parses and checks a webhook URL: http or https only, no credentials, a host whose every address is globally
 * routable unicast (unless allowPrivate). Returns the address to pin the connection to and its family.
 */
export async function checkWebhookUrl(
  url: string,
  opts: { allowPrivate: boolean; resolve?: Resolver },
): Promise<CheckedTarget> {
  let parsed: URL;
  try {
    // WHATWG parsing rewrites 127.1, 0x7f000001, 2130706433 and 017700000001 to 127.0.0.1 before we look.
    parsed = new URL(url);
  } catch {
    throw new AddressRefused('webhook URL is not a valid absolute URL');
  }
  const host = parsed.hostname;
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    const where = host === '' ? '' : ` for host ${host}`;
    throw new AddressRefused(`only http and https webhook URLs are accepted (got ${parsed.protocol}${where})`);
  }
  if (host === '') throw new AddressRefused('webhook URL has no host');
  // Credentials would be sent to the receiver and stored in plain text with the webhook; the message omits them.
  if (parsed.username !== '' || parsed.password !== '') {
    throw new AddressRefused(`webhook URL for host ${host} must not contain a username or password`);
  }

  // After WHATWG parsing an IP literal is either bracketed IPv6 or four-part decimal IPv4; anything else is a name.
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  const isLiteral = host.startsWith('[') || ipaddr.IPv4.isValidFourPartDecimal(host);
  let addresses: string[];
  if (isLiteral) {
    addresses = [literal];
  } else {
    try {
      addresses = await (opts.resolve ?? systemResolver)(host);
    } catch (error) {
      throw new AddressRefused(`webhook host ${host} could not be resolved`, { cause: error });
    }
  }
  const first = addresses[0];
  if (first === undefined) throw new AddressRefused(`webhook host ${host} resolves to no address`);

  // Every address is checked, not just the first: a client or a later retry might use any of them.
  for (const address of addresses) {
    const { allowed, range } = classifyAddress(address);
    // An address that does not parse cannot be pinned, so even allowPrivate does not let it through.
    if (allowed || (opts.allowPrivate && range !== 'invalid')) continue;
    const verb = isLiteral ? 'is' : 'resolves to';
    throw new AddressRefused(`webhook host ${host} ${verb} ${address} (${range}); ${REFUSAL}`);
  }
  return { url: parsed, address: first, family: ipaddr.parse(first).kind() === 'ipv4' ? 4 : 6 };
}
