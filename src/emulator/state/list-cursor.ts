import { decodeSeqCursor } from '../../internal/seq-cursor.js';
import { ApiFailure } from '../api-failure.js';

/** A list's `cursor` query parameter as a position, or 422 VALIDATION_FAILED naming the parameter. */
export function decodeListCursor(tag: string, cursor: string): number {
  const seq = decodeSeqCursor(tag, cursor);
  if (seq !== undefined) return seq;
  throw new ApiFailure(
    'VALIDATION_FAILED',
    'cursor is not one this list returned; pass next_cursor back exactly as received',
    { details: [{ path: 'cursor', in: 'query', message: 'unknown cursor' }] },
  );
}
