import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/**
 * Who may open a local page: this machine only (the default), anyone who presents the token, or anyone the
 * route authenticates itself (`caller-checked`: the emulator's `/_emulator` routes and their admin key), to
 * which only the cross-site and media-type rules apply.
 */
export type PageAccess = { kind: 'loopback' } | { kind: 'token'; token: string } | { kind: 'caller-checked' };

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/**
 * Headers a reverse proxy adds. A proxy on this machine connects from 127.0.0.1, often with a loopback
 * Host (nginx sends the upstream's address by default), for a browser anywhere: its request is no local one.
 */
const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip', 'via'] as const;

function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(plain) === 4) return plain.startsWith('127.');
  return plain === '::1';
}

/** The host part of a Host header (`localhost:3000`, `[::1]:3000`). */
function hostName(host: string | undefined): string {
  if (!host) return '';
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  return host.split(':')[0]!.toLowerCase();
}

/** Why a local page refused a request: the status, code and message of its error answer. */
export interface LocalRequestRefusal {
  status: 403 | 415;
  code: 'FORBIDDEN' | 'UNSUPPORTED_MEDIA_TYPE';
  message: string;
}

export interface LocalRequestOptions {
  /** What the page is called in a refusal's message ("inspector", "console", "CRM"). */
  page: string;
  /** @default { kind: 'loopback' }: this machine only */
  access?: PageAccess;
  /** The token the request presented (Authorization, address or cookie), for `access: { kind: 'token' }`. */
  token?: string;
}

/** Methods that change nothing: a page loads with them, and a link or an image from anywhere may send them. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The one rule for a page served by a local app and its JSON API (the delivery inspector, the emulator's
 * console, the starters' CRM): undefined when the request may be answered, else the refusal to answer.
 * - It must not come from another site's page ({@link fromThisOrigin}): the app the page is mounted in may
 *   answer CORS for everyone (cors() does by default), which would let that page read the answer, and a
 *   token does not change that (a browser may hold it, README "The delivery inspector"). 403.
 * - In loopback mode (the default) the peer must be this machine AND the Host header a loopback name, with no
 *   proxy's headers: a web page elsewhere that points a DNS name at 127.0.0.1 (DNS rebinding) arrives with its
 *   own host name and is refused. In token mode the request must present the token. 403.
 * - A request that changes something must be JSON, its media type exactly `application/json` (parameters
 *   aside): a form or a `no-cors` fetch on another site can send `text/plain; x=application/json` without a
 *   CORS preflight, never `application/json`. 415.
 */
export function localRequestRefusal(
  req: IncomingMessage,
  { page, access = { kind: 'loopback' }, token }: LocalRequestOptions,
): LocalRequestRefusal | undefined {
  const forbidden = (message: string) => ({ status: 403 as const, code: 'FORBIDDEN' as const, message });
  if (!fromThisOrigin(req)) {
    const even = access.kind === 'token' ? ', with a token too' : '';
    return forbidden(`The ${page} answers its own page only: a request from another site's page is refused${even}`);
  }
  if (access.kind === 'token') {
    if (token === undefined || !safeEqual(token, access.token)) return forbidden(`A valid ${page} token is needed`);
  } else if (access.kind === 'loopback') {
    const local =
      isLoopbackAddress(req.socket.remoteAddress) &&
      LOOPBACK_NAMES.has(hostName(req.headers.host)) &&
      PROXY_HEADERS.every((name) => req.headers[name] === undefined);
    if (!local) return forbidden(`The ${page} answers this machine only (open it on localhost or 127.0.0.1)`);
  }
  if (SAFE_METHODS.has(req.method ?? 'GET') || mediaType(req) === 'application/json') return undefined;
  return {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: `The ${page} takes changes as Content-Type: application/json, got ${JSON.stringify(req.headers['content-type'] ?? '(none)')}`,
  };
}

/** The essence of the request's media type (`type/subtype`, lower case, parameters dropped), or ''. */
function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * True unless the browser says the request comes from another origin's page: an Origin other than this
 * Host (`Origin: null` included), or `Sec-Fetch-Site: cross-site`, which the browser sends where it sends
 * no Origin (a link, an image, a plain GET from a script). Clients that are no browser send neither.
 */
function fromThisOrigin(req: IncomingMessage): boolean {
  if (req.headers['sec-fetch-site'] === 'cross-site') return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

/** Constant time whatever the lengths: both sides are hashed first. */
function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}
