import { ApiFailure } from '../api-failure.js';

/** An upload over one of the Limits bounds: 413 PAYLOAD_TOO_LARGE naming the bound; nothing is stored. */
export function overBound(bound: string, message: string): ApiFailure {
  return new ApiFailure('PAYLOAD_TOO_LARGE', `${message}; the bound is ${bound}; nothing was stored`, {
    details: [{ path: 'file', bound }],
  });
}

/** A file that does not parse as its type: 415 UNSUPPORTED_MEDIA_TYPE; nothing is stored. */
export function notParsable(type: string, reason: string): ApiFailure {
  return new ApiFailure('UNSUPPORTED_MEDIA_TYPE', `The file is not a readable ${type}: ${reason.slice(0, 200)}`, {
    details: [{ path: 'file', type }],
  });
}

/** The message of whatever a parser threw, for a refusal (never a stack). */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
