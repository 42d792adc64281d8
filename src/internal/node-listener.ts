import type { IncomingMessage, ServerResponse } from 'node:http';
import { busy, overLimit, type AdapterOptions, type Endpoint } from './endpoint.js';
import { bodyTimeout, errorAnswer, logRefusal, methodNotAllowed, tooLarge, type HttpAnswer } from './http-answer.js';
import { endAfterBody, type DrainBounds } from './end-after-body.js';
import { readNodeBody } from './read-node-body.js';

export interface NodeListenerOptions extends AdapterOptions {
  /** Express mode: tolerates a Buffer left by express.raw(), refuses a body another parser consumed. */
  express?: boolean;
  /** Says how to mount this endpoint when a body parser already took the bytes the signature covers. */
  mountHelp: string;
  /** The answer when the core itself throws. */
  unexpected: HttpAnswer;
}

/** Writes the answer; one that closes a connection whose body is still arriving ends once that body is drained. */
function writeAnswer(req: IncomingMessage, res: ServerResponse, answer: HttpAnswer, drain: DrainBounds): void {
  if (res.headersSent) return;
  const json = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
    ...answer.headers,
  });
  if (answer.headers?.connection !== 'close') return void res.end(json);
  res.write(json);
  endAfterBody(req, res, drain);
}

/**
 * The answer to a request whose body was not read. While a body is still arriving, the connection closes
 * after the answer: the answer goes out at once, the rest of the body is read and dropped (never held), and
 * the connection closes once it is in (endAfterBody); a body already in is dropped and the connection kept
 * for the next request.
 */
function unreadAnswer(req: IncomingMessage, answer: HttpAnswer): HttpAnswer {
  const closing = !req.complete && !answer.headers?.connection;
  if (!closing) req.resume();
  return closing ? { ...answer, headers: { ...answer.headers, connection: 'close' } } : answer;
}

/** An Express body parser left a parsed object (or consumed the stream): the raw bytes are gone. */
function bodyAlreadyTaken(req: IncomingMessage & { body?: unknown }): boolean {
  return (
    (req.body !== undefined && !Buffer.isBuffer(req.body)) ||
    (req.body === undefined && req.readableEnded && Number(req.headers['content-length'] ?? 0) > 0)
  );
}

/**
 * A node:http `(req, res)` listener (also Express middleware): POST only, the headers checked, then the
 * raw body read within the limit and the budget.
 */
export function nodeListener<A>(
  endpoint: Endpoint<A>,
  options: NodeListenerOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const { maxBodyBytes, log, what, budget, bodyTimeoutMs } = options;
  // A body refused part-read, by why the read stopped.
  const unread = { 'too-large': () => tooLarge(maxBodyBytes), busy, timeout: () => bodyTimeout(bodyTimeoutMs) };
  /** The answer to one request; undefined when the client went away mid-body (nothing to answer). */
  async function answerFor(req: IncomingMessage): Promise<HttpAnswer | undefined> {
    if (req.method !== 'POST') return unreadAnswer(req, logRefusal(log, methodNotAllowed(req.method), what));
    const parsed = options.express ? (req as { body?: unknown }).body : undefined;
    if (options.express && bodyAlreadyTaken(req)) {
      const answer = errorAnswer(500, 'BODY_ALREADY_PARSED', options.mountHelp);
      return logRefusal(log, answer, what, { path: req.url });
    }
    const admission = endpoint.admit(req.headers);
    if (!admission.ok) return unreadAnswer(req, admission.answer);
    // A body express.raw() already holds is in memory either way: no budget to take, but its limit
    // may be above ours, so the size is checked here (no reader did).
    if (Buffer.isBuffer(parsed)) {
      if (overLimit(parsed, maxBodyBytes)) return logRefusal(log, tooLarge(maxBodyBytes), what);
      return endpoint.handle({ headers: req.headers, rawBody: parsed }, admission.admitted);
    }
    const read = await readNodeBody(req, maxBodyBytes, { budget, timeoutMs: bodyTimeoutMs });
    if (!read.ok)
      return read.reason === 'aborted' ? undefined : unreadAnswer(req, logRefusal(log, unread[read.reason](), what));
    try {
      return await endpoint.handle({ headers: req.headers, rawBody: read.body }, admission.admitted);
    } finally {
      budget?.give(read.body.byteLength);
    }
  }

  // A refused body is read and dropped no further than an accepted one could be, nor for longer.
  const drain: DrainBounds = { maxBytes: maxBodyBytes, timeoutMs: bodyTimeoutMs };
  return (req, res) => {
    const send = (answer: HttpAnswer) => {
      writeAnswer(req, res, answer, drain);
      options.onAnswer?.(answer, req.headers);
    };
    answerFor(req).then(
      (answer) => (answer ? send(answer) : res.destroy()),
      (error: unknown) => {
        log.error({ err: error }, `unexpected failure answering a ${what}`);
        send(options.unexpected);
      },
    );
  };
}
