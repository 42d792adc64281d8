import { type IncomingMessage, type ServerResponse } from 'node:http';

const MAX_BODY_BYTES = 64 * 1024; // CRM edits are a few fields; anything bigger is a mistake

/** A request handler that answers what it knows and returns false for the rest (so handlers compose). */
export type Route = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

export function sendError(res: ServerResponse, error: HttpError): void {
  sendJson(res, error.status, { error: { code: error.code, message: error.message } });
}

/**
 * Reads a JSON object body, bounded; a wrong size or syntax is a 4xx with a message saying which. Its media
 * type was checked before any route ran (localRequestRefusal: exactly application/json).
 */
export async function readJsonObject(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, 'PAYLOAD_TOO_LARGE', `Body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'INVALID_JSON', 'Body is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new HttpError(400, 'VALIDATION_FAILED', 'Body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

/** Runs the routes in order; answers 404 when none knows the path, and a JSON error for what they throw. */
export function serveRoutes(routes: Route[], onError: (error: unknown) => void = () => {}) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    try {
      for (const route of routes) if (await route(req, res, url)) return;
      sendError(res, new HttpError(404, 'NOT_FOUND', `No route for ${req.method} ${url.pathname}`));
    } catch (error) {
      if (error instanceof HttpError) return sendError(res, error);
      onError(error);
      if (!res.headersSent)
        sendError(res, new HttpError(500, 'INTERNAL_ERROR', 'The CRM failed to answer; see its log'));
    }
  };
}
