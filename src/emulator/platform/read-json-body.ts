import { MIMEType } from 'node:util';
import express, { type Request, type Response } from 'express';
import { ApiFailure } from '../api-failure.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';

/** JSON bodies are at most 1 MiB (docs/errors.md: 413 PAYLOAD_TOO_LARGE above). */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

// `type: () => true`: the media type was already checked here, with the service's own 415. One parser per limit.
const parsers = new Map<number, ReturnType<typeof express.json>>();
const parserFor = (limit: number) => {
  let parser = parsers.get(limit);
  if (!parser) parsers.set(limit, (parser = express.json({ limit, type: () => true })));
  return parser;
};

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
 * Reads a JSON route's body: undefined when none was sent, 415 when it is not application/json or comes in
 * an encoding other than gzip, deflate or br, 413 above 1 MiB (decompressed), 400 VALIDATION_FAILED when it
 * does not decompress, is not valid JSON, or nests deeper than MAX_JSON_DEPTH. `limitBytes` is for the one route
 * whose body is larger by nature (`PUT /_emulator/state`, MAX_STATE_BYTES).
 */
export async function readJsonBody(req: Request, res: Response, limitBytes = MAX_JSON_BODY_BYTES): Promise<unknown> {
  if (!hasBody(req)) return undefined;
  if (!req.is('application/json') || !isUtf8(req.get('content-type')!)) {
    throw new ApiFailure(
      'UNSUPPORTED_MEDIA_TYPE',
      `Expected Content-Type: application/json (UTF-8), got ${JSON.stringify(req.get('content-type') ?? '(none)')}`,
    );
  }
  await new Promise<void>((resolve, reject) =>
    parserFor(limitBytes)(req, res, (error?: unknown) =>
      error ? reject(mapParseError(error, req, limitBytes)) : resolve(),
    ),
  );
  if (nestsDeeperThan(req.body, MAX_JSON_DEPTH)) {
    throw new ApiFailure(
      'VALIDATION_FAILED',
      `The body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`,
      {
        details: [{ path: '', in: 'body', message: `nested deeper than ${MAX_JSON_DEPTH} levels` }],
      },
    );
  }
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

/** zlib's codes for input it cannot decompress (Z_DATA_ERROR, Z_BUF_ERROR for a cut-off stream, …). */
const isZlibError = (error: unknown) =>
  error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('Z_');

function mapParseError(error: unknown, req: Request, limitBytes: number): unknown {
  if (isZlibError(error)) {
    const encoding = JSON.stringify(req.get('content-encoding')?.slice(0, 100));
    return new ApiFailure(
      'VALIDATION_FAILED',
      `The body does not decompress as its Content-Encoding ${encoding} says: ${(error as Error).message.slice(0, 200)}`,
      { details: [{ path: '', in: 'headers', message: `not ${encoding} data` }] },
    );
  }
  const type = error && typeof error === 'object' && 'type' in error ? error.type : undefined;
  switch (type) {
    case 'entity.too.large':
      return new ApiFailure(
        'PAYLOAD_TOO_LARGE',
        `The JSON body is larger than ${limitBytes} bytes (${limitBytes / (1024 * 1024)} MiB)`,
      );
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
      // The rest of body-parser's refusals are the client's (a body shorter than its Content-Length, a
      // request aborted mid-body): a 400 naming it, never a 500. Anything else is ours.
      if (isClientError(error))
        return new ApiFailure('VALIDATION_FAILED', `The body cannot be read: ${error.message.slice(0, 200)}`, {
          details: [{ path: '', in: 'body', message: error.message.slice(0, 200) }],
        });
      return error;
  }
}

const isClientError = (error: unknown): error is Error =>
  error instanceof Error &&
  'status' in error &&
  typeof error.status === 'number' &&
  error.status >= 400 &&
  error.status < 500;
