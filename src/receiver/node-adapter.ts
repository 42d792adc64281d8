import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { logRejection, type DeliveryInput } from './handle-delivery.js';
import { readNodeBody } from './read-node-body.js';
import { methodNotAllowed, reject, tooLarge, type ReceiverResponse } from './receiver-response.js';

type Core = (input: DeliveryInput) => Promise<ReceiverResponse>;

export function writeResponse(res: ServerResponse, response: ReceiverResponse): void {
  if (res.headersSent) return;
  const json = JSON.stringify(response.body);
  res.writeHead(response.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
    ...response.headers,
  });
  res.end(json);
}

const MOUNT_HELP =
  'The request body was already parsed by another middleware, so its exact bytes (which the signature covers) are gone. ' +
  "Mount the receiver before any body parser: app.post('/webhooks', receiver.middleware()) above app.use(express.json()), " +
  "or give it the raw bytes with express.raw({ type: 'application/json' }).";

/** An Express body parser left a parsed object (or consumed the stream): the raw bytes are gone. */
function bodyAlreadyTaken(req: IncomingMessage & { body?: unknown }): boolean {
  return (
    (req.body !== undefined && !Buffer.isBuffer(req.body)) ||
    (req.body === undefined && req.readableEnded && Number(req.headers['content-length'] ?? 0) > 0)
  );
}

/** A node:http `(req, res)` listener; with `express`, also tolerates a Buffer left by express.raw(). */
export function nodeListener(
  core: Core,
  maxBodyBytes: number,
  log: Logger,
  express = false,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void (async () => {
      if (req.method !== 'POST') return writeResponse(res, logRejection(log, methodNotAllowed(req.method)));
      const parsed = express ? (req as { body?: unknown }).body : undefined;
      if (express && bodyAlreadyTaken(req)) {
        return writeResponse(res, logRejection(log, reject(500, 'BODY_ALREADY_PARSED', MOUNT_HELP), { path: req.url }));
      }
      let rawBody: Buffer;
      if (Buffer.isBuffer(parsed)) {
        rawBody = parsed;
      } else {
        const read = await readNodeBody(req, maxBodyBytes);
        if (!read.ok) {
          if (read.reason === 'too-large') return writeResponse(res, logRejection(log, tooLarge(maxBodyBytes)));
          return res.destroy();
        }
        rawBody = read.body;
      }
      writeResponse(res, await core({ headers: req.headers, rawBody }));
    })().catch((error: unknown) => {
      log.error({ err: error }, 'unexpected receiver failure');
      writeResponse(res, reject(503, 'STORE_UNAVAILABLE', 'Unexpected receiver failure; the service will retry'));
    });
  };
}
