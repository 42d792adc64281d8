import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/** Who may open a local page: this machine only (the default), or anyone who presents the token. */
export type PageAccess = { kind: 'loopback' } | { kind: 'token'; token: string };

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

/**
 * Is this request one the page (`inspector`, `console`) may answer (undefined), or why not, as its 403 says?
 * In both modes it must not come from another site's page ({@link fromThisOrigin}): the app the page is
 * mounted in may answer CORS for everyone (cors() does by default), which would let that page read the
 * answer, and a token does not change that (a browser may hold it, README "The delivery inspector").
 * In loopback mode the peer must be this machine AND the Host header a loopback name: a web page elsewhere
 * that points a DNS name at 127.0.0.1 (DNS rebinding) arrives with its own host name and is refused. In
 * token mode the request must present the token.
 */
export function pageRefusal(
  req: IncomingMessage,
  page: string,
  access: PageAccess,
  token?: string,
): string | undefined {
  if (!fromThisOrigin(req)) {
    const even = access.kind === 'token' ? ', with a token too' : '';
    return `The ${page} answers its own page only: a request from another site's page is refused${even}`;
  }
  if (access.kind === 'token') {
    return token !== undefined && safeEqual(token, access.token) ? undefined : `A valid ${page} token is needed`;
  }
  const local =
    isLoopbackAddress(req.socket.remoteAddress) &&
    LOOPBACK_NAMES.has(hostName(req.headers.host)) &&
    PROXY_HEADERS.every((name) => req.headers[name] === undefined);
  return local ? undefined : `The ${page} answers this machine only (open it on localhost or 127.0.0.1)`;
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

/**
 * A state-changing request must come from the page itself: JSON (a form elsewhere cannot send it without
 * a CORS preflight, which these pages never grant) and, when the browser says where it comes from, the same origin.
 */
export function sameOriginJson(req: IncomingMessage): boolean {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' && fromThisOrigin(req);
}

/** Constant time whatever the lengths: both sides are hashed first. */
function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}
