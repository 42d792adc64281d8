import type busboy from '@convo-kit/emulator/busboy';
import type { Request } from 'express';
import type { z } from 'zod';
import { BodyBudget } from '../../internal/body-budget.js';
import { ApiFailure } from '../api-failure.js';

/** Form fields besides the file: a few short values. */
const MAX_FIELDS = 16;
const MAX_FIELD_BYTES = 64 * 1024;
/** One file per upload. */
const MAX_FILES = 1;
/** A file field whose schema sets no size bound is still bounded by this. */
const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;
/**
 * After a refusal the rest of the upload is read and thrown away, never kept, so that the client reads the
 * answer instead of a reset connection; past this many further bytes the connection is cut instead.
 */
const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
/**
 * The whole upload, and the drain of a refused one, must be in within this long after its headers, as a
 * receiver's body must be within its bodyTimeoutMs: an upload that stalls would otherwise hold its share of
 * UPLOADS_IN_FLIGHT_BYTES until Node's request timeout (300 s), and seven stalled ones kept every other upload
 * at 503 that long. 10 MiB in 10 s is 8 Mbit/s; the emulator's clients are on this machine or its network.
 */
export const UPLOAD_BODY_TIMEOUT_MS = 10_000;

/**
 * File bytes held at once across every upload being read, waiting to be parsed or parsed (two full-size
 * knowledge files: one parsed while the next is read): past it an upload is 503 SERVICE_UNAVAILABLE with
 * Retry-After, so that many uploads together cannot take the process's memory (docs/ai-and-knowledge.md,
 * Knowledge files). Files are parsed one at a time, so holding more only makes them wait: for 12 uploads at
 * once the emulator and its parse process peaked at 416-446 MiB with 64 MiB held, 383-411 with 32 and 363-374
 * with 24, all answered as soon (issue 25, point 5; bench/knowledge-upload-memory.bench.ts).
 */
export const UPLOADS_IN_FLIGHT_BYTES = 24 * 1024 * 1024;
const inFlight = new BodyBudget(UPLOADS_IN_FLIGHT_BYTES);

/** File bytes held by uploads right now (tests watch it). */
export function uploadBytesInFlight(): number {
  return inFlight.inUse;
}

/** The largest file any file field of `schema` accepts (its `z.file().max()`), else the default bound. */
export function maxFileBytesOf(schema: z.ZodObject | undefined): number {
  let max = 0;
  for (const field of Object.values(schema?.shape ?? {})) {
    const def = (field as z.ZodType)._zod.def as { type: string; checks?: { _zod: { def: object } }[] };
    if (def.type !== 'file') continue;
    for (const check of def.checks ?? []) {
      const c = check._zod.def as { check?: string; maximum?: number };
      if (c.check === 'max_size' && typeof c.maximum === 'number') max = Math.max(max, c.maximum);
    }
  }
  return max || DEFAULT_MAX_FILE_BYTES;
}

/**
 * Reads and discards what is left of a refused upload, up to DRAIN_MAX_BYTES and until `deadline` (the
 * upload's, in ms since the epoch); past either the connection is cut.
 */
function drain(req: Request, deadline: number): Promise<void> {
  return new Promise((resolve) => {
    if (req.readableEnded || req.destroyed) return resolve();
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    const cut = () => {
      req.destroy();
      done();
    };
    const timer = setTimeout(cut, Math.max(0, deadline - Date.now()));
    req.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_MAX_BYTES) cut();
    });
    req.once('end', done);
    req.once('close', done);
    req.once('error', done);
    req.resume();
  });
}

/**
 * Reads a `multipart/form-data` body with busboy, enforcing the limits while it streams: a file past
 * `maxFileBytes` is refused (413 PAYLOAD_TOO_LARGE) at the byte that crosses the bound, before any more is
 * held; so are too many fields, long fields and a second file. Fields come back as strings, the file as a
 * `File` held in memory only (nothing is written to disk).
 */
export async function readMultipartBody(req: Request, maxFileBytes: number): Promise<Record<string, string | File>> {
  if (!req.is('multipart/form-data')) {
    return Promise.reject(
      new ApiFailure(
        'UNSUPPORTED_MEDIA_TYPE',
        `Expected Content-Type: multipart/form-data, got ${JSON.stringify(req.get('content-type') ?? '(none)')}`,
      ),
    );
  }
  // busboy reads the bytes as they come: a compressed body would be "Unexpected end of form", a riddle.
  const encoding = req.get('content-encoding')?.trim().toLowerCase();
  if (encoding !== undefined && encoding !== '' && encoding !== 'identity') {
    return Promise.reject(
      new ApiFailure(
        'UNSUPPORTED_MEDIA_TYPE',
        `An upload is sent uncompressed: Content-Encoding ${JSON.stringify(encoding.slice(0, 100))} is not accepted (DOCX, XLSX and PDF files are compressed already)`,
      ),
    );
  }
  // Loaded on first upload: it comes with @convo-kit/emulator, which createEmulator() checks for at start.
  const { default: readForm } = await import('@convo-kit/emulator/busboy');
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = readForm({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: {
          // busboy counts a file that reaches its limit as cut off: one byte more lets exactly maxFileBytes through.
          fileSize: maxFileBytes + 1,
          files: MAX_FILES,
          fields: MAX_FIELDS,
          fieldSize: MAX_FIELD_BYTES,
          parts: MAX_FIELDS + MAX_FILES,
        },
      });
    } catch (error) {
      reject(
        new ApiFailure(
          'VALIDATION_FAILED',
          `The multipart body cannot be read: ${error instanceof Error ? error.message : 'malformed'}`,
        ),
      );
      return;
    }
    const body: Record<string, string | File> = {};
    const deadline = Date.now() + UPLOAD_BODY_TIMEOUT_MS;
    let failed = false;
    // The parser may close before a file stream has ended: the body is complete when both have.
    let openFiles = 0;
    let parsed = false;
    const finish = () => {
      if (failed || !parsed || openFiles > 0) return;
      clearTimeout(timer);
      resolve(body);
    };
    // Reserved as the file arrives; given back when the answer is sent (the file lives until then) or on a refusal.
    let held = 0;
    const release = () => {
      inFlight.give(held);
      held = 0;
    };
    (req.res ?? req).once('close', release);
    const fail = (failure: ApiFailure) => {
      if (failed) return;
      failed = true;
      clearTimeout(timer);
      release();
      req.unpipe(parser);
      void drain(req, deadline).then(() => reject(failure));
    };
    // A stalled upload is not drained (nothing more is coming): it is answered now, and the connection closed.
    const timer = setTimeout(() => {
      failed = true;
      release();
      req.unpipe(parser);
      reject(
        new ApiFailure(
          'BODY_TIMEOUT',
          `The upload was not all in within ${UPLOAD_BODY_TIMEOUT_MS} ms of its headers; nothing was stored`,
          { headers: { Connection: 'close' } },
        ),
      );
    }, UPLOAD_BODY_TIMEOUT_MS);
    const tooLarge = (what: string) => fail(new ApiFailure('PAYLOAD_TOO_LARGE', `${what}; nothing was stored`));
    const repeated = (name: string) =>
      fail(
        new ApiFailure('VALIDATION_FAILED', `The form field ${name} is sent more than once`, {
          details: [{ path: name, in: 'body', message: 'sent more than once' }],
        }),
      );

    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return tooLarge(`The form field ${name} is longer than ${MAX_FIELD_BYTES} bytes`);
      if (name in body) return repeated(name);
      body[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      openFiles++;
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        if (failed) return;
        if (!inFlight.take(chunk.length)) {
          chunks.length = 0;
          return fail(
            new ApiFailure(
              'SERVICE_UNAVAILABLE',
              `Uploads being handled hold ${UPLOADS_IN_FLIGHT_BYTES / 1024 / 1024} MiB, the most at once; retry shortly`,
              { headers: { 'Retry-After': '1' } },
            ),
          );
        }
        held += chunk.length;
        chunks.push(chunk);
      });
      // A body that ends inside the file part errors the file's own stream too: unheard, that ends the process.
      stream.on('error', unreadable);
      stream.on('limit', () => {
        chunks.length = 0;
        tooLarge(`The file ${name} is larger than the upload bound of ${maxFileBytes} bytes`);
      });
      stream.on('end', () => {
        openFiles--;
        if (failed || stream.truncated) return;
        if (name in body) return repeated(name);
        // Socket chunks are plain ArrayBuffer-backed Buffers (never shared memory).
        body[name] = new File(chunks as Uint8Array<ArrayBuffer>[], info.filename, { type: info.mimeType });
        // The File holds its own copy: the chunks are garbage from here, not kept beside it by this closure.
        chunks.length = 0;
        finish();
      });
    });
    parser.on('filesLimit', () => tooLarge(`An upload carries at most ${MAX_FILES} file`));
    parser.on('fieldsLimit', () => tooLarge(`An upload carries at most ${MAX_FIELDS} form fields`));
    parser.on('partsLimit', () => tooLarge(`An upload carries at most ${MAX_FIELDS + MAX_FILES} parts`));
    const unreadable = (error: unknown) =>
      fail(
        new ApiFailure(
          'VALIDATION_FAILED',
          `The multipart body cannot be read: ${error instanceof Error ? error.message.slice(0, 200) : 'malformed'}`,
        ),
      );
    parser.on('error', unreadable);
    parser.on('close', () => {
      parsed = true;
      finish();
    });
    req.on('error', () => fail(new ApiFailure('VALIDATION_FAILED', 'The upload was interrupted')));
    req.pipe(parser);
  });
}
