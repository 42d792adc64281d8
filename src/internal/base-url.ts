import { InvalidOptionError } from '../errors.js';
import { isLoopbackHost } from './address-policy.js';
import { redactText } from './redact-text.js';

/** How a refusal names what it refuses: the client's option, or a setting that carries it (convo-kit/settings). */
export interface BaseUrlWording {
  /** @default '`baseUrl`' */
  name?: string;
  /** What to do about plain http to another machine. @default '; set `allowInsecureHttp: true` for a network you trust' */
  insecureHint?: string;
}

/**
 * The origin (plus any prefix such as `/api`) that table paths (`/v1/...`) are appended to. Accepts the
 * bare origin, `…/v1` or `…/api/v1` (the compatibility routes, spec Versioning 2), with or without a
 * trailing slash: `https://h/api/v1/` -> `https://h/api`, so `/v1/tickets` lands on `https://h/api/v1/tickets`.
 */
export function normalizeBaseUrl(
  baseUrl: string,
  allowInsecureHttp = false,
  { name = '`baseUrl`', insecureHint = '; set `allowInsecureHttp: true` for a network you trust' }: BaseUrlWording = {},
): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new InvalidOptionError(`Expected ${name} to be an absolute http(s) URL, got \`${hideKeys(baseUrl)}\``);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new InvalidOptionError(`Expected ${name} to use https: or http:, got \`${url.protocol}\``);
  }
  if (url.protocol === 'http:' && !allowInsecureHttp && !isThisMachine(url.hostname)) {
    // The service is HTTPS; only the emulator is served over http, on this machine (README, Base URL).
    throw new InvalidOptionError(
      `Expected ${name} to use https: for a host other than this machine (the key would cross the network in clear), got \`${url.origin}\`${insecureHint}`,
    );
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new InvalidOptionError(
      `Expected ${name} without query, fragment or credentials (the key goes in \`apiKey\`)`,
    );
  }
  // `…/V1` names the version segment too: left in, every path became `/V1/v1/…`.
  const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/i, '');
  return `${url.origin}${path}`;
}

/** A key given as the address (swapped settings) must not be printed in the error that refuses it. */
function hideKeys(text: string): string {
  return redactText(text.slice(0, 200));
}

/**
 * This machine: the loopback hosts the project already knows (address-policy.ts: `localhost`, 127.0.0.0/8,
 * ::1), plus `*.localhost` (RFC 6761) and 127.x written as IPv4-mapped IPv6, which the URL parser turns
 * `[::ffff:127.0.0.1]` into and an outbound policy refuses as a mapped form, but which cannot leave the machine.
 */
function isThisMachine(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host.endsWith('.localhost') || isLoopbackHost(host) || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host);
}
