import type { Server } from 'node:http';
import type { HttpAnswer } from '../../internal/http-answer.js';
import { answerParserRefusals, malformedMessage, type ParserRefusal } from '../../internal/parser-refusals.js';
import { ApiFailure } from '../api-failure.js';
import { newRequestId } from './request-id.js';
import { errorEnvelope } from './send-failure.js';

function failureOf(refusal: Exclude<ParserRefusal, { kind: 'timeout' }>): ApiFailure {
  switch (refusal.kind) {
    case 'headers-too-large':
      return new ApiFailure(
        'REQUEST_HEADERS_TOO_LARGE',
        `The request line and headers are over ${refusal.maxHeaderBytes} bytes; a long query string counts, so send large input in a JSON body`,
        {
          details: [{ in: 'headers', path: '', message: `over ${refusal.maxHeaderBytes} bytes with the request line` }],
        },
      );
    case 'chunk-extensions-too-large':
      return new ApiFailure('PAYLOAD_TOO_LARGE', 'The chunk extensions of the body are too large');
    case 'malformed':
      return new ApiFailure('VALIDATION_FAILED', malformedMessage(refusal.parserCode));
  }
}

/** The service's envelope with an X-Request-ID, as every answer has (docs/errors.md). */
function emulatorAnswer(refusal: ParserRefusal): HttpAnswer<unknown> {
  const requestId = newRequestId();
  const headers = { 'X-Request-ID': requestId };
  // Node's own answer to a timeout, 408 with no body, still names the request.
  if (refusal.kind === 'timeout') return { status: 408, body: undefined, headers };
  const failure = failureOf(refusal);
  return { status: failure.status, body: errorEnvelope(failure, requestId), headers };
}

/**
 * Answers what Node's HTTP parser refuses before the app sees a request (headers over 16 KiB, a broken
 * request line) in the error envelope, where Node alone writes a bare status.
 */
export function answerClientErrors(server: Server): void {
  answerParserRefusals(server, emulatorAnswer);
}
