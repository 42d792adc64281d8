import { ConvoKitError } from '../errors.js';

/** Why a delivery's handlers did not succeed; `onError` hears it once a delivery goes dead. */
export type ReceiverErrorCode =
  | 'HANDLER_FAILED'
  | 'HANDLER_TIMEOUT'
  | 'EVENT_SCHEMA_MISMATCH'
  | 'STORED_BODY_UNREADABLE'
  | 'ATTEMPTS_EXHAUSTED'
  /** The lease lapsed (the process stalled) and another worker took the row: this attempt stopped. */
  | 'LEASE_LOST';

export class ReceiverError extends ConvoKitError<ReceiverErrorCode> {}

/** Failures that a retry cannot fix: the delivery goes dead at once (replay it after an upgrade). */
export function isPermanent(error: unknown): boolean {
  return (
    error instanceof ReceiverError &&
    (error.code === 'EVENT_SCHEMA_MISMATCH' || error.code === 'STORED_BODY_UNREADABLE')
  );
}
