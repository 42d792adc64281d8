import type { Logger } from 'pino';
import type { Envelope, EventData, EventName, EventPattern, EventsMatching } from '../events/index.js';
import type { TransactionClient } from '../store/index.js';
import type { ReceiverError } from './receiver-error.js';
import type { StepClient } from './step-client.js';

interface DeliveryContext {
  /** The `X-Service-Delivery` id: the same on every retry of one delivery. */
  deliveryId: string;
  /**
   * The event's own id (`id` in the signed body, `evt_…`; null if the body has none). The receiver stores
   * each event once, and keys its steps by it: make effects exactly once with `step`, `client` and
   * `transaction` rather than with this id by hand (README "Effects, exactly once").
   */
  eventId: string | null;
  /** 1 on the first run, counting afresh after a replay. */
  attempt: number;
  receivedAt: Date;
  /** A pino child logger bound to this delivery (id, event, attempt). */
  log: Logger;
  /** Aborted when the handler times out; pass it to fetch() and friends. */
  signal: AbortSignal;
  /** The whole envelope as it arrived (`id`, `created_at`, unknown fields kept). */
  envelope: Envelope;
  /**
   * Runs `fn` once per event: its result (JSON, at most 64 KiB: MAX_STEP_RESULT_BYTES) is journaled in the
   * receiver's store under this event and `name`, and every later attempt (a retry, a restart after a
   * crash, another process, `convo-kit replay`) gets that result back without running `fn`. A step that
   * throws is not journaled and runs again next attempt. `fn` is at least once: if the process dies inside
   * it, it runs again; make what it does idempotent, or use `client` or `transaction`.
   * Each name once per run: a name used twice throws.
   * @example const contact = await step('crm-contact', () => crm.upsert(data.contact_id));
   */
  step<T>(name: string, fn: () => T | PromiseLike<T>): Promise<T>;
  /**
   * With the PostgreSQL store: `fn(sql)` runs inside a transaction on the store's pool (`sql` is pg's
   * PoolClient: type it as one, `async (sql: PoolClient) => …`), and the step is journaled in that same
   * transaction, so your writes and the record that the step happened commit together or not at all:
   * exactly once. Do not COMMIT or ROLLBACK yourself; throw to roll back. With the SQLite store it throws
   * TRANSACTION_UNSUPPORTED: use `step`.
   * @example await transaction('crm-row', (sql) => sql.query('INSERT INTO crm_notes (event_id, text) VALUES ($1, $2)', [eventId, text]));
   */
  transaction<T, C extends TransactionClient = TransactionClient>(
    name: string,
    fn: (sql: C) => T | PromiseLike<T>,
  ): Promise<T>;
  /**
   * The receiver's `client`, bound to this event: each call is a step (named by its route id and its
   * ordinal in this run, `messages.send:1`, or by `{ step: 'name' }` in its options), so a later attempt
   * gets the journaled answer instead of calling again. Sends (`messages.send`, `conversations.reply`)
   * carry an Idempotency-Key derived from the event and the step unless you pass one: a send the service
   * accepted just before a crash is answered as a replay, so the customer gets one message. Throws
   * CLIENT_NOT_CONFIGURED when the receiver was created without `client`.
   */
  readonly client: StepClient;
}

/** A known event: `data` is parsed by that event's schema and typed. */
export type KnownEventContext<N extends EventName = EventName> = N extends EventName
  ? DeliveryContext & { known: true; event: N; data: EventData<N> }
  : never;

/** An event this version does not know: it reaches `*` handlers with its data as it came. */
export type UnknownEventContext = DeliveryContext & { known: false; event: string; data: Record<string, unknown> };

export type EventContext<P extends EventPattern = '*'> = P extends '*'
  ? KnownEventContext | UnknownEventContext
  : KnownEventContext<EventsMatching<P>>;

export type EventHandler<P extends EventPattern = '*'> = (context: EventContext<P>) => unknown;

export interface ErrorInfo {
  deliveryId: string;
  event: string;
  attempt: number;
}

/** Hears of each delivery that went dead: attempts used up, a timeout on the last one, or data failing its event's schema. */
export type ErrorListener = (error: ReceiverError, info: ErrorInfo) => unknown;
