import type { IncomingMessage } from 'node:http';

/**
 * The inspector page opened with `?token=` keeps the token in this cookie, so the address can drop it (no
 * token left in history, bookmarks or a Referer) and the page's requests and a reload still present it
 * (README "The delivery inspector"). HttpOnly: the page's script never holds it; SameSite=Strict and the
 * inspector's path: no other site's request carries it, nor another path of the app.
 */
const TOKEN_COOKIE = 'convo_kit_inspector';

/**
 * Browsers keep cookies per host, not per port, so the port of the address the browser used is part of the
 * name: inspectors on two ports of one host, with their own tokens, each keep a cookie of their own.
 */
function cookieName(req: IncomingMessage): string {
  let port = '';
  try {
    port = new URL(`http://${req.headers.host ?? ''}`).port;
  } catch {
    // A Host no URL can hold: the scheme's default port names the cookie.
  }
  return `${TOKEN_COOKIE}_${port || ('encrypted' in req.socket ? '443' : '80')}`;
}

/** The Set-Cookie value for a token, or undefined where the mount path cannot be a cookie's Path (a `;` in it). */
export function tokenCookie(req: IncomingMessage, token: string, base: string): string | undefined {
  if (base.includes(';')) return undefined;
  const secure = 'encrypted' in req.socket ? '; Secure' : '';
  return `${cookieName(req)}=${encodeURIComponent(token)}; Path=${base || '/'}; HttpOnly; SameSite=Strict${secure}`;
}

/** The token the request's cookie carries, if any. No dependency of ours parses cookies; this reads one by name. */
export function tokenFromCookie(req: IncomingMessage): string | undefined {
  const name = cookieName(req);
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at === -1 || pair.slice(0, at).trim() !== name) continue;
    try {
      return decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}
