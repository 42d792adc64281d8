// The wire format of docs/webhook-deliveries.md, kept in one place so it is easy to change if the service shows otherwise.
export const SIGNATURE_HEADER = 'x-service-signature';
export const TIMESTAMP_HEADER = 'x-service-timestamp';
export const DELIVERY_HEADER = 'x-service-delivery';
export const EVENT_HEADER = 'x-service-event';
/** The service's delivery ids are `dlv_` + 24 url-safe characters; accept any sane id so a format change loses nothing. */
export const DELIVERY_ID = /^[A-Za-z0-9._:-]{1,200}$/;
export const SIGNATURE_SCHEME = 'sha256=';
/**
 * How long the service waits for a receiver's answer before it counts the attempt as failed and retries
 * (docs/webhook-deliveries.md). The emulator's dispatcher, the CLI's signed posts and the receiver's body
 * timeout all use this one figure.
 */
export const DELIVERY_DEADLINE_MS = 8_000;
/** The replay window: receivers reject a timestamp further than this from their clock, either way. */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;
/** Bounds on hostile headers: the work per request stays small whatever arrives. */
export const MAX_SIGNATURE_HEADER_CHARS = 4096;
export const MAX_SIGNATURES_PER_HEADER = 8;
