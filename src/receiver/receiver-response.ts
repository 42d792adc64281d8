import { errorAnswer, type ErrorBody, type HttpAnswer } from '../internal/http-answer.js';

/** What the receiver answers the service; the adapters turn it into an HTTP response. */
export type RejectionCode =
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'METHOD_NOT_ALLOWED'
  | 'SIGNATURE_MISSING'
  | 'SIGNATURE_MALFORMED'
  | 'TIMESTAMP_MISSING'
  | 'TIMESTAMP_MALFORMED'
  | 'TIMESTAMP_OUT_OF_TOLERANCE'
  | 'SIGNATURE_MISMATCH'
  | 'DELIVERY_ID_MISSING'
  | 'DELIVERY_ID_MALFORMED'
  | 'MALFORMED_JSON'
  | 'INVALID_ENVELOPE'
  | 'BODY_ALREADY_PARSED'
  | 'SECRETS_UNAVAILABLE'
  | 'STORE_UNAVAILABLE'
  | 'BODIES_IN_FLIGHT'
  | 'BODY_TIMEOUT'
  | 'RECEIVER_CLOSING'
  | 'DELIVERY_IN_PROGRESS'
  | 'HANDLER_FAILED';

export interface Accepted {
  received: true;
  delivery_id: string;
  /** True when this id was already stored: a retry of a delivery we have. */
  duplicate: boolean;
  /** processBeforeResponse only: the handlers ran (now or before) and succeeded. */
  processed?: boolean;
}

export type Rejected = ErrorBody<RejectionCode>;

export type ReceiverResponse = HttpAnswer<Accepted | Rejected>;

export const reject: (
  status: number,
  code: RejectionCode,
  message: string,
  headers?: Record<string, string>,
) => ReceiverResponse = errorAnswer;

export function accept(deliveryId: string, duplicate: boolean, processed?: boolean): ReceiverResponse {
  return {
    status: 200,
    body: { received: true, delivery_id: deliveryId, duplicate, ...(processed !== undefined && { processed }) },
  };
}
