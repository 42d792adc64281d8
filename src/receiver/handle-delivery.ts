import type { Logger } from 'pino';
import { Envelope } from '../events/index.js';
import { checkSignedBody, checkSignedHeaders, type AdmittedSignature } from '../signature/check-signed-json.js';
import {
  handleWhole,
  type Admission,
  type Endpoint,
  type RequestBytes,
  type RequestInHand,
} from '../internal/endpoint.js';
import { headerValue as header, type HeaderInput } from '../internal/header-value.js';
import { logRefusal } from '../internal/http-answer.js';
import { DELIVERY_HEADER, DELIVERY_ID, EVENT_HEADER } from '../signature/constants.js';
import type { DeliveryStore } from '../store/index.js';
import { reject, type ReceiverResponse } from './receiver-response.js';
import { decodeBody } from './decode-body.js';
import type { ResolvedOptions } from './receiver-options.js';
import { jsonProblem } from '../internal/json-problem.js';
import { issueText, type IssueLike } from '../internal/issue-text.js';
import { nowMs } from '../telemetry/otel-api.js';
import type { ReceiveSpan, ReceiverTelemetry } from '../telemetry/receiver-telemetry.js';

export type { HeaderInput };

/** What `receiver.handle` takes: the headers and the exact bytes that arrived (a string is UTF-8 encoded). */
export type DeliveryInput = RequestInHand;

export interface DeliveryHandlerDeps {
  options: ResolvedOptions;
  store: DeliveryStore;
  log: Logger;
  isClosing: () => boolean;
  /**
   * Runs once the row is committed: wakes the worker and acks, or (processBeforeResponse) runs the handlers
   * first. `storedId` is the stored row's delivery id: on a duplicate by event id, the first delivery's.
   */
  afterRecord: (deliveryId: string, inserted: boolean, storedId: string) => Promise<ReceiverResponse>;
  /** Receive spans, when the application installed `@opentelemetry/api`. */
  telemetry?: ReceiverTelemetry;
}

/** Seconds a sender is asked to wait while this receiver shuts down: its replacement is up by then. */
const CLOSING_RETRY_AFTER_SECONDS = 5;

const storeUnavailable = () =>
  reject(503, 'STORE_UNAVAILABLE', 'The delivery could not be stored; the service will retry');

function envelopeProblem(error: { issues: readonly IssueLike[] }): string {
  return `Expected a JSON object with an \`event\` string and a \`data\` object; ${issueText(error.issues[0]!, 'the body')}`;
}

/** What the headers of a delivery said, once they passed (the body half needs no header again). */
export interface AdmittedDelivery {
  signed: AdmittedSignature;
  deliveryId: string;
  /** When the headers came (ms since the epoch): the receive span's start. Only with telemetry. */
  startedAt?: number;
}

export interface DeliveryHandler extends Endpoint<AdmittedDelivery> {
  admit(headers: HeaderInput): Admission<AdmittedDelivery>;
  handle(input: RequestBytes, admitted: AdmittedDelivery): Promise<ReceiverResponse>;
  /** Both halves, for bytes already in hand (`receiver.handle`). */
  handleWhole(input: DeliveryInput): Promise<ReceiverResponse>;
}

/**
 * The receiver's core, transport-agnostic, in two halves. `admit`, from the headers alone (the adapters
 * call it before reading a byte of the body): closing, content type, signature and timestamp form and
 * tolerance, delivery id, and a store that already knows it cannot write (`DeliveryStore.ready`). The
 * size is the body reader's (or `handleWhole`'s, for bytes in hand), before `handle`. `handle`, with
 * the body: the HMAC, the envelope, the store, then the answer. A row is committed before any 2xx; a
 * store that cannot write answers 503 so the service retries.
 */
export function createDeliveryHandler(deps: DeliveryHandlerDeps): DeliveryHandler {
  const { options, store, log } = deps;
  const announcedSecrets = new Set<number>();
  const refuse = (response: ReceiverResponse, context?: Record<string, unknown>) =>
    logRefusal(log, response, 'delivery', context);
  const no = (answer: ReceiverResponse) => ({ ok: false as const, answer: refuse(answer) });

  function admitHeaders(headers: HeaderInput): Admission<AdmittedDelivery> {
    if (deps.isClosing())
      return no(
        reject(503, 'RECEIVER_CLOSING', 'The receiver is shutting down; the service will retry', {
          'retry-after': String(CLOSING_RETRY_AFTER_SECONDS),
        }),
      );
    const checked = checkSignedHeaders(headers, options);
    if (!checked.ok) return no(checked.answer);
    const deliveryId = header(headers, DELIVERY_HEADER)?.trim();
    if (!deliveryId)
      return no(
        reject(
          400,
          'DELIVERY_ID_MISSING',
          'Missing X-Service-Delivery header: without it retries cannot be deduplicated',
        ),
      );
    if (!DELIVERY_ID.test(deliveryId))
      return no(
        reject(
          400,
          'DELIVERY_ID_MALFORMED',
          'X-Service-Delivery must be 1-200 characters of letters, digits and . _ : -',
        ),
      );
    // Last, so a request the headers refuse hears why; one that could be genuine hears 503 and is retried.
    if (store.ready?.() === false) return no(storeUnavailable());
    return { ok: true, admitted: { signed: checked.signed, deliveryId } };
  }

  async function handleBody(
    { headers, rawBody: body }: RequestBytes,
    admitted: AdmittedDelivery,
    span: ReceiveSpan | undefined,
  ): Promise<ReceiverResponse> {
    const { deliveryId } = admitted;
    const signed = await checkSignedBody(admitted.signed, body, options, log);
    if (!signed.ok) return refuse(signed.answer);
    const { signature, timestamp, secretIndex } = signed;
    if (!announcedSecrets.has(secretIndex)) {
      announcedSecrets.add(secretIndex);
      log.info(
        { secretIndex },
        `a delivery verified with secret #${secretIndex} (first time since start; rotation progress)`,
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(decodeBody(body));
    } catch (error) {
      return refuse(reject(400, 'MALFORMED_JSON', `Body is not valid UTF-8 JSON: ${jsonProblem(error)}`), {
        deliveryId,
      });
    }
    const envelope = Envelope.safeParse(parsed);
    if (!envelope.success)
      return refuse(reject(400, 'INVALID_ENVELOPE', envelopeProblem(envelope.error)), { deliveryId });
    const event = envelope.data.event;
    span?.named(event);
    // `*` names a pattern, never an event: such a name would reach pattern handlers as if it were known.
    if (event.includes('*'))
      return refuse(reject(400, 'INVALID_ENVELOPE', `\`event\` is a subscription pattern, not an event name`), {
        deliveryId,
      });
    const headerEvent = header(headers, EVENT_HEADER);
    if (headerEvent && headerEvent !== event) {
      // The header is not signed; the body is. Route by the body and say so.
      log.warn(
        { deliveryId, event, headerEvent },
        "X-Service-Event differs from the body's event; routing by the signed body",
      );
    }
    let stored: { inserted: boolean; id: string };
    try {
      stored = await store.record({
        id: deliveryId,
        eventId: envelope.data.id ?? null,
        event,
        body,
        signature,
        timestamp,
        receivedAt: options.now(),
      });
    } catch (error) {
      log.error({ err: error, deliveryId }, 'could not store a delivery');
      return refuse(storeUnavailable(), { deliveryId });
    }
    const { inserted, id: storedId } = stored;
    if (inserted) span?.stored(storedId);
    // Guarded: the object would be built for every delivery even with debug off.
    if (log.isLevelEnabled('debug'))
      log.debug(
        { deliveryId, event, duplicate: !inserted, ...(storedId !== deliveryId && { duplicateOf: storedId }) },
        inserted ? 'stored delivery' : 'duplicate delivery',
      );
    return deps.afterRecord(deliveryId, inserted, storedId);
  }

  const { telemetry } = deps;

  /** With telemetry, a refusal here is a receive span of its own; an admitted request carries its start on. */
  function admit(headers: HeaderInput): Admission<AdmittedDelivery> {
    if (!telemetry) return admitHeaders(headers);
    const startedAt = nowMs();
    const admission = admitHeaders(headers);
    if (admission.ok) return { ok: true, admitted: { ...admission.admitted, startedAt } };
    const deliveryId = header(headers, DELIVERY_HEADER)?.trim();
    // A malformed id is the sender's text of any length: not an attribute.
    telemetry
      .receive(startedAt, deliveryId && DELIVERY_ID.test(deliveryId) ? deliveryId : undefined)
      .end(admission.answer);
    return admission;
  }

  async function handle(input: RequestBytes, admitted: AdmittedDelivery): Promise<ReceiverResponse> {
    if (!telemetry) return handleBody(input, admitted, undefined);
    const span = telemetry.receive(admitted.startedAt ?? nowMs(), admitted.deliveryId);
    let answer: ReceiverResponse = storeUnavailable();
    try {
      answer = await span.run(() => handleBody(input, admitted, span));
      return answer;
    } finally {
      span.end(answer);
    }
  }

  return {
    admit,
    handle,
    handleWhole: (input) =>
      handleWhole({ admit, handle }, input, { maxBodyBytes: options.maxBodyBytes, log, what: 'delivery' }),
  };
}
