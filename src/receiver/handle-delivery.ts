import type { Logger } from 'pino';
import { Envelope } from '../events/index.js';
import {
  DELIVERY_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  SignatureVerificationError,
  TIMESTAMP_HEADER,
  verify,
} from '../signature/index.js';
import type { DeliveryStore } from '../store/index.js';
import { reject, tooLarge, type ReceiverResponse } from './receiver-response.js';
import type { ResolvedOptions } from './receiver-options.js';

/** Headers as node:http gives them (lower-case keys) or as a fetch `Headers`. */
export type HeaderInput = Headers | Record<string, string | string[] | undefined>;

/** What the transport-agnostic core takes: the headers and the exact bytes that arrived. */
export interface DeliveryInput {
  headers: HeaderInput;
  rawBody: Uint8Array | string;
}

export interface DeliveryHandlerDeps {
  options: ResolvedOptions;
  store: DeliveryStore;
  log: Logger;
  isClosing: () => boolean;
  /** Runs once the row is committed: wakes the worker and acks, or (processBeforeResponse) runs the handlers first. */
  afterRecord: (deliveryId: string, inserted: boolean) => Promise<ReceiverResponse>;
}

/** The service's ids are `dlv_` + 24 url-safe characters; accept any sane id so a format change loses nothing. */
const DELIVERY_ID = /^[A-Za-z0-9._:-]{1,200}$/;
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;
const utf8 = new TextDecoder('utf-8', { fatal: true });

function header(headers: HeaderInput, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function envelopeProblem(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0]!;
  const where = issue.path.length ? `\`${issue.path.map(String).join('.')}\`` : 'the body';
  return `Expected a JSON object with an \`event\` string and a \`data\` object; ${where}: ${issue.message}`;
}

/** Every refused request is logged with why (never with a secret or signature). */
export function logRejection(
  log: Logger,
  response: ReceiverResponse,
  context: Record<string, unknown> = {},
): ReceiverResponse {
  if ('error' in response.body) {
    const { code, message } = response.body.error;
    log.warn({ status: response.status, code, ...context }, `rejected delivery: ${message}`);
  }
  return response;
}

/**
 * The receiver's core, transport-agnostic: limit, content type, signature, delivery id, envelope, store,
 * then the answer. A row is committed before any 2xx; a store that cannot write answers 503 so the
 * service retries.
 */
export function createDeliveryHandler(deps: DeliveryHandlerDeps): (input: DeliveryInput) => Promise<ReceiverResponse> {
  const { options, store, log } = deps;
  const announcedSecrets = new Set<number>();
  const refuse = (response: ReceiverResponse, context?: Record<string, unknown>) =>
    logRejection(log, response, context);

  return async function handleDelivery({ headers, rawBody }: DeliveryInput): Promise<ReceiverResponse> {
    const body = typeof rawBody === 'string' ? Buffer.from(rawBody) : rawBody;
    if (deps.isClosing())
      return refuse(reject(503, 'RECEIVER_CLOSING', 'The receiver is shutting down; the service will retry'));
    if (body.byteLength > options.maxBodyBytes) return refuse(tooLarge(options.maxBodyBytes));
    const contentType = header(headers, 'content-type')?.split(';')[0]?.trim() ?? '';
    if (!JSON_TYPE.test(contentType)) {
      return refuse(
        reject(
          415,
          'UNSUPPORTED_MEDIA_TYPE',
          `Expected Content-Type application/json, got ${contentType ? JSON.stringify(contentType.slice(0, 100)) : 'none'}`,
        ),
      );
    }
    const signature = header(headers, SIGNATURE_HEADER);
    const timestamp = header(headers, TIMESTAMP_HEADER);
    let secretIndex: number;
    try {
      ({ secretIndex } = await verify({
        body,
        signature,
        timestamp,
        secrets: options.secrets,
        toleranceSeconds: options.toleranceSeconds,
        now: options.now,
      }));
    } catch (error) {
      if (error instanceof SignatureVerificationError) return refuse(reject(401, error.code, error.message));
      log.error({ err: error }, 'could not resolve the webhook secrets');
      return refuse(
        reject(503, 'SECRETS_UNAVAILABLE', 'The receiver could not load its webhook secrets; the service will retry'),
      );
    }
    if (!announcedSecrets.has(secretIndex)) {
      announcedSecrets.add(secretIndex);
      log.info(
        { secretIndex },
        `a delivery verified with secret #${secretIndex} (first time since start; rotation progress)`,
      );
    }
    const deliveryId = header(headers, DELIVERY_HEADER)?.trim();
    if (!deliveryId)
      return refuse(
        reject(
          400,
          'DELIVERY_ID_MISSING',
          'Missing X-Service-Delivery header: without it retries cannot be deduplicated',
        ),
      );
    if (!DELIVERY_ID.test(deliveryId)) {
      return refuse(
        reject(
          400,
          'DELIVERY_ID_MALFORMED',
          'X-Service-Delivery must be 1-200 characters of letters, digits and . _ : -',
        ),
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(utf8.decode(body));
    } catch (error) {
      return refuse(reject(400, 'MALFORMED_JSON', `Body is not valid UTF-8 JSON: ${(error as Error).message}`), {
        deliveryId,
      });
    }
    const envelope = Envelope.safeParse(parsed);
    if (!envelope.success)
      return refuse(reject(400, 'INVALID_ENVELOPE', envelopeProblem(envelope.error)), { deliveryId });
    const event = envelope.data.event;
    const headerEvent = header(headers, EVENT_HEADER);
    if (headerEvent && headerEvent !== event) {
      // The header is not signed; the body is. Route by the body and say so.
      log.warn(
        { deliveryId, event, headerEvent },
        "X-Service-Event differs from the body's event; routing by the signed body",
      );
    }
    let inserted: boolean;
    try {
      ({ inserted } = await store.record({
        id: deliveryId,
        event,
        body,
        signature: signature!,
        timestamp: timestamp!,
        receivedAt: options.now(),
      }));
    } catch (error) {
      log.error({ err: error, deliveryId }, 'could not store a delivery');
      return refuse(reject(503, 'STORE_UNAVAILABLE', 'The delivery could not be stored; the service will retry'), {
        deliveryId,
      });
    }
    log.debug({ deliveryId, event, duplicate: !inserted }, inserted ? 'stored delivery' : 'duplicate delivery');
    return deps.afterRecord(deliveryId, inserted);
  };
}
