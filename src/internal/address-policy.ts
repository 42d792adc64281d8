import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where an outbound request (a webhook delivery, a reply POST) may connect. Every special-purpose range
 * is refused whatever the policy: private, CGNAT, link-local (cloud metadata), multicast, reserved,
 * documentation, and IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo).
 * - `public`: public unicast addresses only (what the service delivers to);
 * - `loopback`: loopback only (the emulator's default: local receivers);
 * - `loopback-or-public`: either (the emulator with public hosts allowed).
 */
export type AddressPolicy = 'public' | 'loopback' | 'loopback-or-public';

export type AddressVerdict = { ok: true } | { ok: false; reason: string };

/** IPv6 prefixes ipaddr.js calls unicast that still carry or reach an IPv4 or local address. */
const EXTRA_IPV6_REFUSED: [ipaddr.IPv6, number, string][] = [
  [ipaddr.IPv6.parse('::'), 96, 'IPv4-compatible IPv6 (deprecated)'],
  [ipaddr.IPv6.parse('64:ff9b:1::'), 48, 'local-use NAT64'],
  [ipaddr.IPv6.parse('100::'), 64, 'discard-only'],
  // Newer than ipaddr.js's table: documentation (RFC 9637), SRv6 SIDs (RFC 9602, not globally reachable),
  // and the deprecated site-local range (RFC 3879), which some networks still route internally.
  [ipaddr.IPv6.parse('3fff::'), 20, 'documentation'],
  [ipaddr.IPv6.parse('5f00::'), 16, 'SRv6 SIDs'],
  [ipaddr.IPv6.parse('fec0::'), 10, 'site-local (deprecated)'],
];

/**
 * The range an address belongs to: `unicast` for a public address, `loopback`, or the name of the
 * special-purpose range (ipaddr.js's names, e.g. `private`, `carrierGradeNat`, `linkLocal`, `ipv4Mapped`).
 * Throws on a string that is not an IP address.
 */
export function addressRange(address: string): string {
  const parsed = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
  const range = parsed.range();
  if (range !== 'unicast' || parsed.kind() !== 'ipv6') return range;
  for (const [prefix, bits, name] of EXTRA_IPV6_REFUSED) if ((parsed as ipaddr.IPv6).match(prefix, bits)) return name;
  return range;
}

/** Whether `policy` allows connecting to this IP address (an IPv6 literal may keep its brackets). */
export function checkAddress(address: string, policy: AddressPolicy): AddressVerdict {
  let range: string;
  try {
    range = addressRange(address);
  } catch {
    return { ok: false, reason: `${address} is not an IP address` };
  }
  if (range === 'loopback' && policy !== 'public') return { ok: true };
  if (range === 'unicast' && policy !== 'loopback') return { ok: true };
  if (range === 'unicast')
    return { ok: false, reason: `${address} is a public address; only loopback receivers are allowed` };
  return { ok: false, reason: `${address} is not a public address (${range})` };
}

/** Names that never reach a public host: local names and cloud metadata endpoints. */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|localdomain)$/i;
const METADATA_NAMES = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data']);
/** An IPv4 address spelled inside a name, as wildcard DNS services answer it (`10.0.0.1.nip.io`, `10-0-0-1.sslip.io`). */
const EMBEDDED_IPV4 = /(?:^|[.-])((?:\d{1,3}[.-]){3}\d{1,3})(?=[.-]|$)/g;

/**
 * Whether a URL's host may be used under `policy` without resolving it: an IP literal is checked as an
 * address; a name is refused when it is a cloud metadata endpoint or, unless only loopback is allowed
 * (then what it resolves to decides), when it is local, a single label, or spells a refused IPv4 address
 * (`169.254.169.254.nip.io`). A name that passes must still be checked once resolved, at connect time
 * (`guardedLookup`): this check cannot see what DNS answers.
 */
export function checkHost(hostname: string, policy: AddressPolicy): AddressVerdict {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (host === '') return { ok: false, reason: 'the URL has no host' };
  if (isIP(host)) return checkAddress(host, policy);
  if (METADATA_NAMES.has(host)) return { ok: false, reason: `${host} is a cloud metadata endpoint` };
  if (host === 'localhost' || host.endsWith('.localhost'))
    return policy === 'public' ? { ok: false, reason: `${host} is a loopback name` } : { ok: true };
  if (policy === 'loopback') return { ok: true };
  if (LOCAL_NAME.test(host)) return { ok: false, reason: `${host} is a local name, not a public host` };
  if (!host.includes('.')) return { ok: false, reason: `${host} is a single-label name, not a public host` };
  for (const match of host.matchAll(EMBEDDED_IPV4)) {
    const embedded = match[1]!.replace(/-/g, '.');
    if (isIP(embedded) !== 4) continue;
    const verdict = checkAddress(embedded, 'public');
    if (!verdict.ok)
      return { ok: false, reason: `${host} names ${embedded}, which ${verdict.reason.slice(embedded.length + 1)}` };
  }
  return { ok: true };
}

/** A loopback host written as such: `localhost` or a loopback IP literal (not a name that resolves to one). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost') return true;
  return isIP(host) !== 0 && addressRange(host) === 'loopback';
}

/** `checkHost` on a URL string; also refuses a URL that does not parse. */
export function checkUrlHost(url: string, policy: AddressPolicy): AddressVerdict {
  if (!URL.canParse(url)) return { ok: false, reason: 'not a URL' };
  return checkHost(new URL(url).hostname, policy);
}
