import { z } from 'zod';
import type { StepJournal } from './step-journal.js';

/**
 * Where a delivery is in its life: `pending` (stored, waiting), `processing` (leased to a worker),
 * `done`, `failed` (will be retried at `nextAttemptAt`), `dead` (given up; replay requeues it).
 */
export const DeliveryStatus = z.enum(['pending', 'processing', 'done', 'failed', 'dead']);
export type DeliveryStatus = z.output<typeof DeliveryStatus>;

/** How one attempt ended; `lost` when its lease expired (the process died or the handler overran). */
export const AttemptOutcome = z.enum(['done', 'failed', 'dead', 'lost']);
export type AttemptOutcome = z.output<typeof AttemptOutcome>;

/** What the receiver stores for a verified delivery, before any handler runs. Times are ms since the epoch. */
export interface NewDelivery {
  /** The `X-Service-Delivery` id: the same on every retry of one delivery, so it is the primary key. */
  id: string;
  /**
   * The event's own id (`id` in the signed body, `evt_…`), or null when the body has none. Unique too:
   * the delivery id header is not signed, so a captured delivery resent under a new delivery id, or one
   * event delivered to two registrations of the same URL, must still be a duplicate.
   */
  eventId: string | null;
  event: string;
  /** The exact bytes that arrived: what the signature covers, so the row can be verified again. */
  body: Uint8Array;
  /** `X-Service-Signature` and `X-Service-Timestamp` as they arrived (to re-verify; never logged). */
  signature: string;
  timestamp: string;
  receivedAt: number;
}

/** A stored delivery without its body: what lists return, so a page stays small. */
export interface DeliverySummary {
  id: string;
  event: string;
  /** Body size in bytes. */
  size: number;
  receivedAt: number;
  status: DeliveryStatus;
  /** Attempts started since the delivery was recorded or last requeued. */
  attempts: number;
  /** When a worker may next take it: the retry time, or the lease end while processing; null once done or dead. */
  nextAttemptAt: number | null;
  leaseOwner: string | null;
  leaseUntil: number | null;
  lastError: string | null;
  updatedAt: number;
}

export interface DeliveryRecord extends DeliverySummary {
  body: Uint8Array;
  signature: string;
  timestamp: string;
  /** Set by a claim that took the row from a worker whose lease had lapsed (a lease recovery). */
  recovered?: boolean;
}

/** What waits in the store, for health checks and metrics: counts by status, and the oldest unfinished row. */
export interface Backlog {
  pending: number;
  /** Failed rows waiting for their retry time. */
  retrying: number;
  processing: number;
  dead: number;
  /** `receivedAt` of the oldest row not yet done or dead (pending, retrying or processing); null when none. */
  oldestReceivedAt: number | null;
}

export interface AttemptRecord {
  deliveryId: string;
  /** The attempt number the handler saw (counting restarts at 1 after a requeue). */
  attempt: number;
  owner: string;
  startedAt: number;
  /** Null only where a store lists running attempts too (the SQLite store writes an attempt when it ends). */
  finishedAt: number | null;
  outcome: AttemptOutcome | null;
  error: string | null;
}

export interface ClaimOptions {
  /** At most this many rows; the receiver asks for exactly the room its queue has. */
  limit: number;
  /** How long the claim holds; past it, another worker may take the row again. */
  leaseMs: number;
  /** Who holds the lease; unique per receiver instance. */
  owner: string;
  /** @default Date.now() */
  now?: number;
}

export interface ClaimByIdOptions extends Omit<ClaimOptions, 'limit'> {
  /** Take the row whatever its status but a live lease, attempts counted afresh (`convo-kit replay`). */
  replay?: boolean;
}

export interface RenewOptions {
  /** The lease runs this long from `now` again. */
  leaseMs: number;
  /** @default Date.now() */
  now?: number;
}

export type FailOptions = { error: string; now?: number } & (
  | { retryAt: number; dead?: false }
  | { dead: true; retryAt?: undefined }
);

export interface ListQuery {
  status?: DeliveryStatus | readonly DeliveryStatus[];
  /** An event name, `*` or `ns.*`, matched exactly as the service matches subscriptions. */
  eventPattern?: string;
  /** Received at or after (ms since the epoch). */
  since?: number;
  /** Received before (ms since the epoch). */
  until?: number;
  /** @default 50, at most 500 */
  limit?: number;
  /** `nextCursor` of the previous page, passed back as it came. */
  cursor?: string;
}

export interface DeliveryPage {
  /** Newest first: the most recently stored delivery leads. */
  data: DeliverySummary[];
  nextCursor: string | null;
}

/**
 * Everything the receiver needs from storage. Small and async, so a PostgreSQL store drops in behind it.
 * `complete` and `fail` apply only while `owner` still holds the row's lease and answer whether they did.
 * The step journal (StepJournal) lives beside the inbox, so a step's record is pruned with its delivery.
 */
export interface DeliveryStore extends StepJournal {
  /**
   * How long done rows are kept before `prune` may remove them (`null`: kept for good). The receiver refuses
   * a store that forgets them sooner than its `toleranceSeconds` can accept a replay of one. Absent: a store
   * of your own that does not say, which the receiver cannot check.
   */
  readonly pruneDoneAfterMs?: number | null;
  /**
   * Stores a delivery unless its delivery id or its (non-null) event id is already stored: then nothing
   * changes, `inserted` is false and `id` is the delivery id of the row already stored. One write: both
   * ids are unique keys of the same row. Resolves once committed.
   */
  record(delivery: NewDelivery): Promise<{ inserted: boolean; id: string }>;
  /**
   * Optional, synchronous and cheap (asked of every delivery's headers): false when the store already
   * knows `record` would fail, so the receiver answers 503 without reading the body. The SQLite store
   * is not ready while its database file is gone (README "Durability"). Absent: always ready.
   */
  ready?(): boolean;
  /** Atomically leases due rows: pending or failed rows whose time has come, and processing rows whose lease expired. */
  claim(options: ClaimOptions): Promise<DeliveryRecord[]>;
  /**
   * Leases one row now, due or not, unless it is done, dead or leased to someone else (serverless mode: the
   * service's retry is the trigger). With `replay`, a done or dead row is taken too, its attempts counted
   * afresh, in one write: a replay never requeues a row that a running worker could take first.
   */
  claimById(id: string, options: ClaimByIdOptions): Promise<DeliveryRecord | undefined>;
  /**
   * Extends `owner`'s lease while its handler runs, so a lease can be short (a dead process's rows come
   * back soon) and a long handler still keeps its row. False when `owner` no longer holds the row.
   */
  renew(id: string, owner: string, options: RenewOptions): Promise<boolean>;
  complete(id: string, owner: string, now?: number): Promise<boolean>;
  fail(id: string, owner: string, options: FailOptions): Promise<boolean>;
  get(id: string): Promise<DeliveryRecord | undefined>;
  /** The attempt history of one delivery, oldest first: each attempt once it ended (or was found lost); a running one shows as the status. */
  attempts(id: string): Promise<AttemptRecord[]>;
  list(query?: ListQuery): Promise<DeliveryPage>;
  /** Back to pending, due now, attempts counted afresh (replay). Rows leased right now are left alone. Answers how many moved. */
  requeue(ids: readonly string[], now?: number): Promise<number>;
  /**
   * Optional: the rows waiting, by status (`receiver.health()`, the backlog metrics). One aggregate query;
   * the receiver asks at most once a second. Absent: health says only whether the store answers.
   */
  backlog?(): Promise<Backlog>;
  /** Deletes done rows last updated before `olderThan` (ms since the epoch), their history and their steps; answers how many. */
  prune(olderThan: number): Promise<number>;
  /**
   * Calls `listener` when another process may have stored a delivery (PostgreSQL's LISTEN/NOTIFY), so an
   * idle worker claims it at once; answers a function that stops listening. Without it, the poll finds them.
   */
  watch?(listener: () => void): () => void;
  close(): Promise<void>;
}

/** Bounds on what one call may ask for, shared by every store. */
export const LIST_DEFAULT_LIMIT = 50;
export const LIST_MAX_LIMIT = 500;
export const REQUEUE_MAX_IDS = 1000;
