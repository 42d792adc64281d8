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

/**
 * `GET /openapi.json`: the bytes `convo-kit openapi` prints, the service's routes only (the `/_emulator` controls are
 * not the service's; `convo-kit openapi --emulator` documents them). Public like `GET /_emulator`: it names routes,
 * never data. A query is refused by name, as on every other route.
 */
export function serveOpenapi(req: Request, res: Response): void {
  try {
    validateRequest({ query: NO_QUERY }, { params: {}, query: req.query, body: undefined, headers: {} });
    text ??= openapiText(openapi());
    res.type('json').send(text);
  } catch (error) {
    sendFailure(res, asFailure(error).failure);
  }
}
