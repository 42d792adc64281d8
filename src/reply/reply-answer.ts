import type { CustomReplyAnswer } from '../api/schemas/custom-reply.js';
import type { SignedJsonRefusal } from '../signature/check-signed-json.js';
import type { ErrorBody, HttpAnswer } from '../internal/http-answer.js';

/** Why a reply endpoint answered something other than `{ reply }`; any of them makes the service hand off. */
export type ReplyErrorCode =
  | SignedJsonRefusal['body']['error']['code']
  | 'METHOD_NOT_ALLOWED'
  | 'BODY_ALREADY_PARSED'
  | 'MALFORMED_JSON'
  | 'INVALID_REQUEST'
  | 'NO_REPLY'
  | 'INVALID_REPLY'
  | 'REPLY_FAILED'
  | 'REPLY_TIMEOUT';

/** What a reply endpoint answers: 200 `{ reply }`, or the error envelope with one of {@link ReplyErrorCode}. */
export type ReplyEndpointAnswer = HttpAnswer<CustomReplyAnswer | ErrorBody<ReplyErrorCode>>;
