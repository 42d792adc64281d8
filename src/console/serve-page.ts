import type { IncomingMessage, ServerResponse } from 'node:http';
import { readNodeBody } from '../internal/read-node-body.js';
import { renderPage, type Page } from './page-shell.js';

// Every answer: not kept, not sniffed, not sent on as a referrer, not readable from another origin's page.
const NO_STORE = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { ...NO_STORE, 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

export function sendError(res: ServerResponse, status: number, code: string, message: string): void {
  sendJson(res, status, { error: { code, message } });
}

export function sendPage(res: ServerResponse, page: Page, status = 200): void {
  const { html, csp } = renderPage(page);
  res.writeHead(status, {
    ...NO_STORE,
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': csp,
    'x-frame-options': 'DENY',
    // A window another site opened cannot reach into the page, nor the page into it.
    'cross-origin-opener-policy': 'same-origin',
  });
  res.end(html);
}

/** A page's browser module (browser-modules.ts), as a script: not kept, not sniffed, not readable from another origin. */
export function sendModule(res: ServerResponse, javascript: string): void {
  res.writeHead(200, { ...NO_STORE, 'content-type': 'text/javascript; charset=utf-8' });
  res.end(javascript);
}

/** A page's own JSON body, or why it could not be read, as the answer to give. */
export type JsonBody =
  | { ok: true; value: unknown }
  | { ok: false; status: 400 | 413; code: 'PAYLOAD_TOO_LARGE' | 'MALFORMED_JSON'; message: string };

/** Reads a small JSON body (the pages' own requests); one too large, cut short or not JSON says which. */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<JsonBody> {
  const read = await readNodeBody(req, maxBytes);
  if (!read.ok) {
    return read.reason === 'too-large'
      ? { ok: false, status: 413, code: 'PAYLOAD_TOO_LARGE', message: `The body is over ${maxBytes} bytes` }
      : { ok: false, status: 400, code: 'MALFORMED_JSON', message: 'The body did not arrive whole' };
  }
  try {
    return { ok: true, value: JSON.parse(new TextDecoder().decode(read.body)) };
  } catch (error) {
    return {
      ok: false,
      status: 400,
      code: 'MALFORMED_JSON',
      message: `The body is not JSON: ${(error as Error).message}`,
    };
  }
}

/**
 * Where the page is mounted, from what Express left in `req.url` and the full `originalUrl`
 * (`app.use('/_inspector', …)`), so the page's own links work under any prefix. The prefix itself, with
 * no slash after it (`/_inspector`, the address `convo-kit listen` prints), reaches the page as `/`.
 */
export function mountPath(req: IncomingMessage & { originalUrl?: string }): {
  base: string;
  path: string;
  query: URLSearchParams;
} {
  const inner = new URL(req.url ?? '/', 'http://page.local');
  const outer = new URL(req.originalUrl ?? req.url ?? '/', 'http://page.local');
  const mounted = outer.pathname.endsWith(inner.pathname)
    ? outer.pathname.slice(0, outer.pathname.length - inner.pathname.length)
    : outer.pathname;
  return { base: mounted.replace(/\/$/, ''), path: inner.pathname, query: inner.searchParams };
}

/**
 * A page handler served at `prefix` by a plain node:http server, as `app.use(prefix, handler)` mounts it in
 * Express (its own path in `url`, the whole one in `originalUrl`, which {@link mountPath} reads back). The
 * result takes a request under the prefix and answers true, or leaves any other request alone and answers false.
 */
export function mountAt(
  prefix: string,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const path = new URL(req.url ?? '/', 'http://page.local').pathname;
    if (path !== prefix && !path.startsWith(`${prefix}/`)) return false;
    Object.assign(req, { originalUrl: req.url, url: (req.url ?? '/').slice(prefix.length) || '/' });
    handler(req, res);
    return true;
  };
}
