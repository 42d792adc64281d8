import { prefixedId } from '../../internal/prefixed-id.js';
import type { NextFunction, Request, Response } from 'express';

/** A caller's own X-Request-ID is echoed when it is 1-200 of these characters (docs/errors.md). */
const CALLER_REQUEST_ID = /^[A-Za-z0-9._:-]{1,200}$/;

export function newRequestId(): string {
  return prefixedId('req', 12);
}

/** Sets X-Request-ID on every response, before anything can fail. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const given = req.get('x-request-id');
  const id = given !== undefined && CALLER_REQUEST_ID.test(given) ? given : newRequestId();
  res.locals.requestId = id;
  res.set('X-Request-ID', id);
  next();
}

export function requestIdOf(res: Response): string {
  return typeof res.locals.requestId === 'string' ? res.locals.requestId : newRequestId();
}
