import type { Response } from 'express';
import { DOCS_BASE_URL, type ErrorEnvelope } from '../../api/error-codes.js';
import { ApiFailure } from '../api-failure.js';
import { requestIdOf } from './request-id.js';
import { sendJson } from './send-json.js';

/** The one error envelope (docs/errors.md): code, message, doc_url, request_id and optional details. */
export function errorEnvelope(
  failure: Pick<ApiFailure, 'message' | 'details'> & { code: string },
  requestId: string,
): ErrorEnvelope {
  return {
    error: {
      code: failure.code,
      message: failure.message,
      doc_url: `${DOCS_BASE_URL}#${failure.code}`,
      request_id: requestId,
      ...(failure.details ? { details: failure.details } : {}),
    },
  };
}

export function sendFailure(res: Response, failure: ApiFailure): void {
  if (failure.headers) res.set(failure.headers);
  sendJson(res, failure.status, JSON.stringify(errorEnvelope(failure, requestIdOf(res))));
}

/** Anything that is not an ApiFailure is our bug: a 500 that says nothing about internals. */
export function asFailure(error: unknown): { failure: ApiFailure; unexpected: boolean } {
  if (error instanceof ApiFailure) return { failure: error, unexpected: false };
  return {
    failure: new ApiFailure(
      'INTERNAL_ERROR',
      'The emulator failed unexpectedly; the error is in its log under this request_id',
    ),
    unexpected: true,
  };
}
