import { ErrorEnvelope } from '../api/error-codes.js';
import {
  ApiError,
  type ApiErrorInit,
  AuthenticationError,
  ConflictError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  SendFailedError,
  ServerError,
  ValidationFailedError,
} from './api-error.js';
import { snippet } from './read-body.js';
import { headerRecord, type RawResponse, retryAfterOf } from './response-meta.js';

function unknownMessage(raw: RawResponse): string {
  if (raw.bodyProblem?.code === 'RESPONSE_TOO_LARGE') return `HTTP ${raw.status}: ${raw.bodyProblem.message}`;
  const text = typeof raw.body === 'string' ? raw.body : raw.body === undefined ? '' : JSON.stringify(raw.body);
  const start = snippet(text);
  return `HTTP ${raw.status} without the error envelope${start ? `: ${start}` : ''}`;
}

/** Maps a non-2xx answer to the ApiError subclass callers branch on (docs/errors.md). */
export function apiErrorFrom(raw: RawResponse): ApiError {
  const envelope = ErrorEnvelope.safeParse(raw.body);
  const headerRequestId = raw.headers.get('x-request-id');
  const init: ApiErrorInit = envelope.success
    ? {
        status: raw.status,
        code: envelope.data.error.code,
        message: envelope.data.error.message,
        docUrl: envelope.data.error.doc_url,
        requestId: envelope.data.error.request_id || headerRequestId,
        details: envelope.data.error.details ?? [],
        headers: headerRecord(raw.headers),
        body: raw.body,
      }
    : {
        status: raw.status,
        code: 'UNKNOWN',
        message: unknownMessage(raw),
        docUrl: null,
        requestId: headerRequestId,
        details: [],
        headers: headerRecord(raw.headers),
        body: raw.body,
      };
  switch (raw.status) {
    case 400:
      return new ValidationFailedError(init);
    case 401:
      return new AuthenticationError(init);
    case 403:
      return new PermissionError(init);
    case 404:
      return new NotFoundError(init);
    case 409:
      return new ConflictError(init);
    case 429:
      return new RateLimitError(init, retryAfterOf(raw.headers));
  }
  if (raw.status === 422 && init.code === 'SEND_FAILED') return new SendFailedError(init);
  if (raw.status === 422 && init.code === 'VALIDATION_FAILED') return new ValidationFailedError(init);
  if (raw.status >= 500) return new ServerError(init);
  return new ApiError(init);
}
