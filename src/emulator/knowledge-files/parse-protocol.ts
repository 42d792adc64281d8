import { z } from 'zod';
import type { ErrorCode } from '../../api/error-codes.js';

/** The parse process's start, its one argument (JSON): read back in the child, so checked there. */
export const ParseChildStart = z.object({
  /** The process's allocation budget for byte buffers, per parse (allocation-budget.ts). */
  maxBufferBytes: z.number().int().positive(),
});
export type ParseChildStart = z.infer<typeof ParseChildStart>;

/** One file to parse (sent over the IPC channel with the V8 serializer: `bytes` travels as bytes, not JSON). */
export interface ParseRequest {
  fileName: string;
  bytes: Uint8Array;
}

/**
 * What the parse process answers: `ready` once it has started; then, for each request, `parsing` once the
 * parser the file's type needs is loaded (the parse's clock starts there), and its result.
 */
export type ParseMessage = { kind: 'ready' } | { kind: 'parsing' } | ParseResult;

export type ParseResult =
  | { kind: 'text'; text: string }
  /** A refusal of extractText (415, 413 naming its bound), as its ApiFailure's fields. */
  | { kind: 'refused'; code: ErrorCode; message: string; details: Record<string, unknown>[] | undefined }
  /** The parse allocated past the process's buffer budget. */
  | { kind: 'over-buffers' }
  /** A parser threw something extractText did not map: a fault of the emulator's, not of the file. */
  | { kind: 'failed'; message: string };
