import type { Logger } from 'pino';
import type { Envelope, EventData, EventName, EventPattern, EventsMatching } from '../events/index.js';
import type { ReceiverError } from './receiver-error.js';

interface DeliveryContext {
  /** The `X-Service-Delivery` id: the same on every retry of one delivery. */
  deliveryId: string;
  /**
   * The event's own id (`id` in the signed body, `evt_…`; null if the body has none): the receiver
   * stores each event once, so this is the idempotency key to use for your side effects.
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
