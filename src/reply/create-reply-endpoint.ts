import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { BodyBudget } from '../internal/body-budget.js';
import { fetchHandler } from '../internal/fetch-handler.js';
import { errorAnswer } from '../internal/http-answer.js';
import { nodeListener, type NodeListenerOptions } from '../internal/node-listener.js';
import { envelopedServer } from '../internal/parser-refusals.js';
import { redactedLogger } from '../internal/redacted-logger.js';
import { createReplyRequestHandler, type ReplyRequestInput } from './handle-reply-request.js';
import type { ReplyEndpointAnswer } from './reply-answer.js';
import { resolveReplyOptions, type ReplyEndpointOptions } from './reply-options.js';

export interface ReplyEndpoint {
  /** The transport-agnostic core: headers and raw bytes in, status and JSON body out. */
  handle(input: ReplyRequestInput): Promise<ReplyEndpointAnswer>;
  /** Express middleware; reads the raw bytes itself, so mount it before any body parser. */
  middleware(): RequestHandler;
  /** A fetch-standard handler for other frameworks. */
  readonly fetch: (request: Request) => Promise<Response>;
  /** A node:http listener: `http.createServer(endpoint.listener)`. */
  readonly listener: (req: IncomingMessage, res: ServerResponse) => void;
  /**
   * A node:http server, not yet listening, that serves `listener` (by default this endpoint's own) and
   * answers what Node's HTTP parser refuses in the endpoint's error envelope (see Receiver.createServer).
   */
  createServer(listener?: RequestListener): Server;
  readonly log: Logger;
}

const MOUNT_HELP =
  'The request body was already parsed by another middleware, so its exact bytes (which the signature covers) are gone. ' +
  "Mount the reply endpoint before any body parser: app.post('/reply', endpoint.middleware()) above app.use(express.json()), " +
  "or give it the raw bytes with express.raw({ type: 'application/json' }).";

/**
 * Your side of the service's custom reply endpoint: verifies the signed request, hands your function
 * the typed context (history, knowledge, verified tool context, instructions) and answers `{ reply }`
 * within `timeoutMs`. Anything else it answers (a timeout, a throw, nothing to say) makes the service
 * hand the conversation to a person. See docs/custom-reply.md.
 * @example
 * const endpoint = createReplyEndpoint({
 *   secret: process.env.REPLY_SECRET!,
 *   // The history is empty when the provider's send_conversation_history is off; null hands off.
 *   reply: async ({ conversation_history }) => {
 *     const asked = conversation_history.at(-1)?.content;
 *     return asked ? `You said: ${asked}` : null;
 *   },
 * });
 * app.post('/reply', endpoint.middleware());
 */
export function createReplyEndpoint(options: ReplyEndpointOptions): ReplyEndpoint {
  const resolved = resolveReplyOptions(options);
  const log = redactedLogger('convo-kit-reply', options.logger);
  const core = createReplyRequestHandler(resolved, log);
  const adapter: NodeListenerOptions = {
    maxBodyBytes: resolved.maxBodyBytes,
    // One budget for every adapter of this endpoint: the bound is on this process's memory.
    budget: new BodyBudget(resolved.maxInFlightBytes),
    bodyTimeoutMs: resolved.bodyTimeoutMs,
    log,
    what: 'reply request',
    mountHelp: MOUNT_HELP,
    unexpected: errorAnswer(500, 'REPLY_FAILED', 'Unexpected reply endpoint failure (the log says why)'),
  };
  const listener = nodeListener(core, adapter);
  return {
    handle: core.handleWhole,
    middleware: () => nodeListener(core, { ...adapter, express: true }) as RequestHandler,
    fetch: fetchHandler(core, adapter),
    listener,
    createServer: (serve = listener) => envelopedServer(serve, log, 'reply request'),
    log,
  };
}
