import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { CustomReplyAnswer } from '../../api/schemas/custom-reply.js';
import { readNodeBody } from '../../internal/read-node-body.js';
import { signingHeaders } from '../../signature/index.js';
import { USER_AGENT } from '../dispatch/post-delivery.js';
import { checkedLookup, refusedAddress } from './reply-endpoint-address.js';

/** A `{ reply }` of 4096 characters is under 20 KB of JSON; a larger answer is not read to the end. */
export const REPLY_ANSWER_MAX_BYTES = 64 * 1024;

export type ReplyCallOutcome = { ok: true; reply: string } | { ok: false; status: number | null; reason: string };

const failure = (reason: string, status: number | null = null): ReplyCallOutcome => ({ ok: false, status, reason });

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'))
    return `no answer within timeout_ms (${timeoutMs} ms)`;
  const code = error && typeof error === 'object' && 'code' in error ? `${String(error.code)}: ` : '';
  return code + (error instanceof Error ? error.message : String(error)).slice(0, 200);
}

function parseAnswer(status: number, bytes: Buffer): ReplyCallOutcome {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    return failure('the answer is not JSON', status);
  }
  const answer = CustomReplyAnswer.safeParse(json);
  if (!answer.success) {
    const issue = answer.error.issues[0]!;
    return failure(
      `the answer is not { reply } of 1 to 4096 characters (${issue.path.join('.') || 'body'}: ${issue.message})`,
      status,
    );
  }
  return { ok: true, reply: answer.data.reply };
}

/**
 * One signed POST of a custom reply request (signed like a webhook, with the provider's secret), the
 * whole exchange within `timeoutMs`. The address is checked before connecting (a name is checked as it
 * resolves); redirects are not followed; the answer is read up to 64 KiB. Never throws.
 */
export function callReplyEndpoint(input: {
  url: string;
  secret: string;
  body: string;
  timeoutMs: number;
  signal?: AbortSignal;
}): Promise<ReplyCallOutcome> {
  const url = new URL(input.url);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const refused = isIP(host) ? refusedAddress(host) : null;
  if (refused) return Promise.resolve(failure(`refused to connect: ${refused}`));
  // A plain timer held by this call, not AbortSignal.timeout: under GC pressure Node 20 may collect a
  // composite timeout signal before it fires. The deadline is also checked on the answer itself, so an
  // answer that lands after timeout_ms is a timeout even when the timer fires late on a busy loop.
  const deadline = Date.now() + input.timeoutMs;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('timeout_ms', 'TimeoutError')), input.timeoutMs);
  const signal = input.signal ? AbortSignal.any([input.signal, controller.signal]) : controller.signal;
  const headers = {
    ...signingHeaders({ secret: input.secret, body: input.body }),
    'user-agent': USER_AGENT,
    'content-length': String(Buffer.byteLength(input.body)),
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const timedOut = () => failure(describe(new DOMException('timeout_ms', 'TimeoutError'), input.timeoutMs));
  const call = new Promise<ReplyCallOutcome>((resolve) => {
    const request = send(url, { method: 'POST', headers, lookup: checkedLookup, signal }, (response) => {
      const status = response.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        response.resume();
        return resolve(Date.now() > deadline ? timedOut() : failure(`the endpoint answered ${status}`, status));
      }
      void readNodeBody(response, REPLY_ANSWER_MAX_BYTES).then((read) => {
        if (Date.now() > deadline) {
          response.destroy();
          return resolve(timedOut());
        }
        if (read.ok) return resolve(parseAnswer(status, read.body));
        response.destroy();
        resolve(
          read.reason === 'too-large'
            ? failure(`the answer is over ${REPLY_ANSWER_MAX_BYTES} bytes`, status)
            : failure(signal.aborted ? describe(signal.reason, input.timeoutMs) : 'the answer was cut off', status),
        );
      });
    });
    request.on('error', (error) => resolve(failure(describe(signal.aborted ? signal.reason : error, input.timeoutMs))));
    request.end(input.body);
  });
  return call.finally(() => clearTimeout(timer));
}
