import { ConvoKitError } from '../errors.js';

/** Why a delivery's handlers did not succeed; `onError` hears it once a delivery goes dead. */
export type ReceiverErrorCode =
  | 'HANDLER_FAILED'
  | 'HANDLER_TIMEOUT'
  | 'EVENT_SCHEMA_MISMATCH'
  | 'STORED_BODY_UNREADABLE'
  | 'ATTEMPTS_EXHAUSTED'
  /** The lease lapsed (the process stalled) and another worker took the row: this attempt stopped. */
  | 'LEASE_LOST'
  /** A step (ctx.step, ctx.transaction, a ctx.client call) misused: the delivery is retried, as for any handler error. */
  | 'STEP_NAME_INVALID'
  | 'STEP_NAME_REUSED'
  | 'TOO_MANY_STEPS'
  | 'STEP_RESULT_NOT_JSON'
  | 'STEP_RESULT_TOO_LARGE'
  /** ctx.transaction with a store that cannot journal a step inside your transaction (SQLite). */
  | 'TRANSACTION_UNSUPPORTED'
  /** ctx.client touched by a receiver created without `client`. */
  | 'CLIENT_NOT_CONFIGURED'
  /** receiver.close() passed its deadline while the handlers still ran: the row was released, due at once. */
  | 'RECEIVER_CLOSED';

export class ReceiverError extends ConvoKitError<ReceiverErrorCode> {}

/** Failures that a retry cannot fix: the delivery goes dead at once (replay it after an upgrade). */
export function isPermanent(error: unknown): boolean {
  return (
    error instanceof ReceiverError &&
    (error.code === 'EVENT_SCHEMA_MISMATCH' || error.code === 'STORED_BODY_UNREADABLE')
  );
}
