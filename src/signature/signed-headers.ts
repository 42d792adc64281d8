import { prefixedId } from '../internal/prefixed-id.js';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER } from './constants.js';
import { sign, type Body } from './sign.js';

export interface SignedHeadersInput {
  secret: string;
  body: Body;
  /** Unix seconds. @default now */
  timestamp?: number;
  /** @default a fresh `dlv_…` id */
  deliveryId?: string;
  /** @default the body's `event` field when the body is a JSON envelope */
  event?: string;
}

export type SignedHeaders = Record<
  'content-type' | typeof SIGNATURE_HEADER | typeof TIMESTAMP_HEADER | typeof DELIVERY_HEADER | typeof EVENT_HEADER,
  string
>;

/** `dlv_` + 24 url-safe characters (docs/webhook-deliveries.md). */
export function newDeliveryId(): string {
  return prefixedId('dlv');
}

function eventOf(body: Body): string {
  try {
    const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && 'event' in parsed && typeof parsed.event === 'string')
      return parsed.event;
  } catch {
    // Not JSON: the caller is testing a malformed body; no event header to derive.
  }
  return '';
}

export type SigningHeaders = Record<'content-type' | typeof SIGNATURE_HEADER | typeof TIMESTAMP_HEADER, string>;

/** The content type and the two signing headers: what the custom reply call carries (it is no delivery). */
export function signingHeaders(input: { secret: string; body: Body; timestamp?: number }): SigningHeaders {
  const timestamp = input.timestamp ?? Math.floor(Date.now() / 1000);
  return {
    'content-type': 'application/json',
    [SIGNATURE_HEADER]: sign({ secret: input.secret, timestamp, body: input.body }),
    [TIMESTAMP_HEADER]: String(timestamp),
  } as SigningHeaders;
}

/**
 * The four headers the service sends with a delivery, signed for `body`: for your own tests.
 * @example await request(app).post('/webhooks').set(signedHeaders({ secret, body })).send(body)
 */
export function signedHeaders(input: SignedHeadersInput): SignedHeaders {
  return {
    ...signingHeaders(input),
    [DELIVERY_HEADER]: input.deliveryId ?? newDeliveryId(),
    [EVENT_HEADER]: input.event ?? eventOf(input.body),
  } as SignedHeaders;
}
