import type { Request, Response } from 'express';
import { NO_QUERY } from '../../api/endpoint.js';
import { openapi } from '../../api/openapi/openapi.js';
import { openapiText } from '../../api/openapi/openapi-text.js';
import { asFailure, sendFailure } from './send-failure.js';
import { validateRequest } from './validate-request.js';

/** Where a non-production service describes itself (spec, "Versioning" 4). */
export const OPENAPI_PATH = '/openapi.json';

/** Built on the first request and kept: the contract table does not change while the process runs. */
let text: string | undefined;

/** Stands in the kept text for the server address, which is each request's own. */
const SERVER_URL_SLOT = 'http://server-url.invalid';

/** A Host header as a browser or client sends it: a name or IP literal and an optional port, nothing else. */
const PLAIN_HOST = /^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/**
 * Where this request reached the emulator: its Host header when it is a plain host, else the socket's
 * own address, so that `servers` names the port the document was served from.
 */
function servingOrigin(req: Request): string {
  const host = req.get('host');
  if (host !== undefined && PLAIN_HOST.test(host)) return `${req.protocol}://${host}`;
  const { localAddress = '127.0.0.1', localPort } = req.socket;
  const address = localAddress.includes(':') ? `[${localAddress}]` : localAddress;
  return `${req.protocol}://${address}:${localPort}`;
}

/**
 * `GET /openapi.json`: the bytes `convo-kit openapi --server-url <where it was asked>` prints, the service's routes only (the `/_emulator` controls are
 * not the service's; `convo-kit openapi --emulator` documents them). Public like `GET /_emulator`: it names routes,
 * never data. A query is refused by name, as on every other route.
 */
export function serveOpenapi(req: Request, res: Response): void {
  try {
    validateRequest({ query: NO_QUERY }, { params: {}, query: req.query, body: undefined, headers: {} });
    text ??= openapiText(openapi({ serverUrl: SERVER_URL_SLOT }));
    res.type('json').send(text.replace(JSON.stringify(SERVER_URL_SLOT), JSON.stringify(servingOrigin(req))));
  } catch (error) {
    sendFailure(res, asFailure(error).failure);
  }
}
