import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { HeaderInput } from './header-value.js';
import { errorAnswer, logRefusal, methodNotAllowed, tooLarge, type HttpAnswer } from './http-answer.js';
import { readNodeBody } from './read-node-body.js';

/** The transport-agnostic core of an endpoint: the headers and the exact bytes that arrived, in; an answer out. */
export type EndpointCore = (input: { headers: HeaderInput; rawBody: Uint8Array | string }) => Promise<HttpAnswer>;

export interface AdapterOptions {
  maxBodyBytes: number;
  log: Logger;
  /** What a refusal is logged as ("delivery", "reply request"). */
  what: string;
}

export interface NodeListenerOptions extends AdapterOptions {
  /** Express mode: tolerates a Buffer left by express.raw(), refuses a body another parser consumed. */
  express?: boolean;
  /** Says how to mount this endpoint when a body parser already took the bytes the signature covers. */
  mountHelp: string;
  /** The answer when the core itself throws. */
  unexpected: HttpAnswer;
}

export function writeAnswer(res: ServerResponse, answer: HttpAnswer): void {
  if (res.headersSent) return;
  const json = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
    ...answer.headers,
  });
  res.end(json);
}

/** An Express body parser left a parsed object (or consumed the stream): the raw bytes are gone. */
function bodyAlreadyTaken(req: IncomingMessage & { body?: unknown }): boolean {
  return (
    (req.body !== undefined && !Buffer.isBuffer(req.body)) ||
    (req.body === undefined && req.readableEnded && Number(req.headers['content-length'] ?? 0) > 0)
  );
}

/** A node:http `(req, res)` listener (also Express middleware): POST only, the raw body read within a limit. */
export function nodeListener(
  core: EndpointCore,
  options: NodeListenerOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const { maxBodyBytes, log, what } = options;
  return (req, res) => {
    void (async () => {
      if (req.method !== 'POST') return writeAnswer(res, logRefusal(log, methodNotAllowed(req.method), what));
      const parsed = options.express ? (req as { body?: unknown }).body : undefined;
      if (options.express && bodyAlreadyTaken(req)) {
        const answer = errorAnswer(500, 'BODY_ALREADY_PARSED', options.mountHelp);
        return writeAnswer(res, logRefusal(log, answer, what, { path: req.url }));
      }
      let rawBody: Buffer;
      if (Buffer.isBuffer(parsed)) {
        rawBody = parsed;
      } else {
        const read = await readNodeBody(req, maxBodyBytes);
        if (!read.ok) {
          if (read.reason === 'too-large') return writeAnswer(res, logRefusal(log, tooLarge(maxBodyBytes), what));
          return res.destroy();
        }
        rawBody = read.body;
      }
      writeAnswer(res, await core({ headers: req.headers, rawBody }));
    })().catch((error: unknown) => {
      log.error({ err: error }, `unexpected failure answering a ${what}`);
      writeAnswer(res, options.unexpected);
    });
  };
}
