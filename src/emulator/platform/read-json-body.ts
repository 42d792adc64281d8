import { MIMEType } from 'node:util';
import express, { type Request, type Response } from 'express';
import { ApiFailure } from '../api-failure.js';

/** JSON bodies are at most 1 MiB (docs/errors.md: 413 PAYLOAD_TOO_LARGE above). */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

// `type: () => true`: the media type was already checked here, with the service's own 415.
const parseJson = express.json({ limit: MAX_JSON_BODY_BYTES, type: () => true });

/**
 * JSON is UTF-8 (RFC 8259), so a charset, when given, must say so; body-parser alone would decode any
 * `utf-*` (UTF-16 included) and parse it.
 */
function isUtf8(contentType: string): boolean {
  let charset: string | null;
  try {
    charset = new MIMEType(contentType).params.get('charset');
  } catch {
    return false;
  }
  return charset === null || charset.toLowerCase() === 'utf-8';
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Reads a JSON route's body: undefined when none was sent, 415 when it is not application/json,
 * 413 above 1 MiB, 400 VALIDATION_FAILED when it is not valid JSON.
 */
export async function readJsonBody(req: Request, res: Response): Promise<unknown> {
  if (!hasBody(req)) return undefined;
  if (!req.is('application/json') || !isUtf8(req.get('content-type')!)) {
    throw new ApiFailure(
      'UNSUPPORTED_MEDIA_TYPE',
      `Expected Content-Type: application/json (UTF-8), got ${JSON.stringify(req.get('content-type') ?? '(none)')}`,
    );
  }
  await new Promise<void>((resolve, reject) =>
    parseJson(req, res, (error?: unknown) => (error ? reject(mapParseError(error)) : resolve())),
  );
  return req.body as unknown;
}

/** Is the text body-parser could not take (it keeps it as `body`, at most 1 MiB) valid JSON after all? */
function isJsonScalar(error: unknown): boolean {
  if (!error || typeof error !== 'object' || !('body' in error) || typeof error.body !== 'string') return false;
  try {
    JSON.parse(error.body);
    return true;
  } catch {
    return false;
  }
}

function mapParseError(error: unknown): unknown {
  const type = error && typeof error === 'object' && 'type' in error ? error.type : undefined;
  switch (type) {
    case 'entity.too.large':
      return new ApiFailure('PAYLOAD_TOO_LARGE', `The JSON body is larger than ${MAX_JSON_BODY_BYTES} bytes (1 MiB)`);
    case 'entity.parse.failed':
      // body-parser's strict mode refuses a JSON value that is not an object or array (`null`, `42`) with
      // the same error as malformed text; say which it was.
      if (isJsonScalar(error))
        return new ApiFailure(
          'VALIDATION_FAILED',
          'The body is a JSON value but not an object: expected a JSON object',
          {
            details: [{ path: '', in: 'body', message: 'expected a JSON object' }],
          },
        );
      return new ApiFailure('VALIDATION_FAILED', 'The body is not valid JSON', {
        details: [
          { path: '', in: 'body', message: error instanceof Error ? error.message.slice(0, 200) : 'malformed JSON' },
        ],
      });
    case 'encoding.unsupported':
      return new ApiFailure('UNSUPPORTED_MEDIA_TYPE', 'The body must be JSON sent as is or gzip, deflate or br');
    default:
      return error;
  }
}
