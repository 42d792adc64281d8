import { sampleEvent, type DeepPartial, type EventName, type SampleEnvelope } from '../events/index.js';
import { newDeliveryId, signedHeaders, type SignedHeaders } from '../signature/index.js';

export type SignedDeliveryInput<N extends EventName = EventName> = {
  secret: string;
  /** Unix seconds. @default now */
  timestamp?: number;
  /** @default a fresh `dlv_…` id */
  deliveryId?: string;
} & (
  | {
      /** A sample of this event (sampleEvent), with `overrides` deep-merged. */ event: N;
      overrides?: DeepPartial<SampleEnvelope<N>>;
      envelope?: undefined;
    }
  | {
      /** Any envelope (or raw string body) you built yourself, e.g. an unknown event. */ envelope: object | string;
      event?: undefined;
      overrides?: undefined;
    }
);

export interface SignedDelivery {
  /** The exact bytes to send: the signature covers them. */
  body: string;
  headers: SignedHeaders;
  deliveryId: string;
  /** The envelope the body was made from (undefined when a raw string was given). */
  envelope: unknown;
}

/**
 * A delivery exactly as the service would POST it, signed with `secret`: for your own tests.
 * @example
 * const { body, headers } = signedDelivery({ secret, event: 'ticket.created' });
 * await request(app).post('/webhooks').set(headers).send(body).expect(200);
 */
export function signedDelivery<N extends EventName>(input: SignedDeliveryInput<N>): SignedDelivery {
  const envelope = input.envelope ?? sampleEvent(input.event, input.overrides);
  const body = typeof envelope === 'string' ? envelope : JSON.stringify(envelope);
  const deliveryId = input.deliveryId ?? newDeliveryId();
  const headers = signedHeaders({ secret: input.secret, body, deliveryId, timestamp: input.timestamp });
  return { body, headers, deliveryId, envelope: typeof envelope === 'string' ? undefined : envelope };
}
