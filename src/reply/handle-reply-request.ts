import type { Logger } from 'pino';
import { CustomReplyRequest, REPLY_MAX_CHARS } from '../api/schemas/custom-reply.js';
import { checkSignedBody, checkSignedHeaders, type AdmittedSignature } from '../signature/check-signed-json.js';
import type { HeaderInput } from '../internal/header-value.js';
import { errorAnswer, logRefusal } from '../internal/http-answer.js';
import {
  handleWhole,
  type Admission,
  type Endpoint,
  type RequestBytes,
  type RequestInHand,
} from '../internal/endpoint.js';
import { strictUtf8 } from '../internal/strict-utf8.js';
import type { ReplyEndpointAnswer, ReplyErrorCode } from './reply-answer.js';
import type { ReplyResult, ResolvedReplyOptions } from './reply-options.js';
import { jsonProblem } from '../internal/json-problem.js';
import { issuesText } from '../internal/issue-text.js';

/** What `endpoint.handle` takes: the headers and the exact bytes that arrived (a string is UTF-8 encoded). */
export type ReplyRequestInput = RequestInHand;

const refusal = (status: number, code: ReplyErrorCode, message: string): ReplyEndpointAnswer =>
  errorAnswer(status, code, message);

/** The reply function's result as the answer's text, or why it cannot be sent. */
function replyText(result: ReplyResult): { text: string } | { problem: string } | null {
  if (result === null || result === undefined) return null;
  const text = typeof result === 'string' ? result : (result as { reply?: unknown }).reply;
  if (typeof text !== 'string') return { problem: `expected a string or { reply: string }, got ${typeof text}` };
  if (text.trim() === '') return { problem: 'the reply is empty' };
  if (text.length > REPLY_MAX_CHARS)
    return { problem: `the reply is ${text.length} characters; a message holds at most ${REPLY_MAX_CHARS}` };
  return { text };
}

/** Runs the user's function within `timeoutMs`; a late result is dropped (the answer was already a 504). */
async function runWithin(
  run: (signal: AbortSignal) => ReplyResult | Promise<ReplyResult>,
  timeoutMs: number,
): Promise<{ ok: true; result: ReplyResult } | { ok: false; timedOut: boolean; error?: unknown }> {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const work = (async () => run(abort.signal))();
  try {
    const outcome = await Promise.race([work.then((result) => ({ result })), timeout]);
    if (outcome === 'timeout') {
      abort.abort(new Error(`The reply took longer than ${timeoutMs} ms (timeoutMs)`));
      return { ok: false, timedOut: true };
    }
    return { ok: true, result: outcome.result };
  } catch (error) {
    return { ok: false, timedOut: false, error };
  } finally {
    clearTimeout(timer);
    work.catch(() => undefined);
  }
}

export interface ReplyRequestHandler extends Endpoint<AdmittedSignature> {
  handle(input: RequestBytes, signed: AdmittedSignature): Promise<ReplyEndpointAnswer>;
  /** Both halves, for bytes already in hand (`endpoint.handle`). */
  handleWhole(input: ReplyRequestInput): Promise<ReplyEndpointAnswer>;
}

/**
 * The reply endpoint's core, transport-agnostic, in two halves: `admit` from the headers alone (content
 * type, signature and timestamp form; the adapters call it before reading the body, whose reader bounds
 * its size), then the HMAC (401), the request's schema (400) and the user's function under `timeoutMs`; its result is
 * checked as the service will check it (1 to 4096 characters) so a bad reply fails here, visibly,
 * rather than at the service.
 */
export function createReplyRequestHandler(options: ResolvedReplyOptions, log: Logger): ReplyRequestHandler {
  const refuse = (answer: ReplyEndpointAnswer) => logRefusal(log, answer, 'reply request');

  function admit(headers: HeaderInput): Admission<AdmittedSignature> {
    const checked = checkSignedHeaders(headers, options);
    return checked.ok ? { ok: true, admitted: checked.signed } : { ok: false, answer: refuse(checked.answer) };
  }

  async function handle({ rawBody: body }: RequestBytes, admitted: AdmittedSignature): Promise<ReplyEndpointAnswer> {
    const signed = await checkSignedBody(admitted, body, options, log);
    if (!signed.ok) return refuse(signed.answer);
    let parsed: unknown;
    try {
      parsed = JSON.parse(strictUtf8(body));
    } catch (error) {
      return refuse(refusal(400, 'MALFORMED_JSON', `Body is not valid UTF-8 JSON: ${jsonProblem(error)}`));
    }
    const request = CustomReplyRequest.safeParse(parsed);
    if (!request.success)
      return refuse(
        refusal(400, 'INVALID_REQUEST', `Not a custom reply request: ${issuesText(request.error.issues, 'the body')}`),
      );
    const context = { log, timestamp: Number(signed.timestamp) };
    const outcome = await runWithin((signal) => options.reply(request.data, { ...context, signal }), options.timeoutMs);
    if (!outcome.ok) {
      if (outcome.timedOut)
        return refuse(
          refusal(504, 'REPLY_TIMEOUT', `The reply function took longer than ${options.timeoutMs} ms (timeoutMs)`),
        );
      log.error({ err: outcome.error, task: request.data.task }, 'the reply function threw');
      return refuse(refusal(500, 'REPLY_FAILED', 'The reply function threw (the log says why)'));
    }
    const text = replyText(outcome.result);
    if (text === null)
      return refuse(refusal(422, 'NO_REPLY', 'The reply function answered nothing; the service hands off to a person'));
    if ('problem' in text)
      return refuse(refusal(500, 'INVALID_REPLY', `The reply function's result cannot be sent: ${text.problem}`));
    log.debug({ task: request.data.task, chars: text.text.length }, 'answered a reply request');
    return { status: 200, body: { reply: text.text } };
  }

  return {
    admit,
    handle,
    handleWhole: (input) =>
      handleWhole({ admit, handle }, input, { maxBodyBytes: options.maxBodyBytes, log, what: 'reply request' }),
  };
}
