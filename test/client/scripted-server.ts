import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';

/** One request as the server saw it. */
export interface Seen {
  method: string;
  /** Path and query exactly as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Answers request number `index` (0-based); may leave `res` open (slow) or destroy the socket (dropped). */
export type Script = (req: Seen, res: ServerResponse, index: number) => void | Promise<void>;

export interface ScriptedServer {
  url: string;
  port: number;
  seen: Seen[];
  close(): Promise<void>;
}

/** A real HTTP server on an ephemeral port that records every request and answers as scripted. */
export async function startScripted(script: Script): Promise<ScriptedServer> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(entry);
      void Promise.resolve()
        .then(() => script(entry, res, seen.length - 1))
        .catch((err: unknown) => {
          res.statusCode = 599;
          res.end(String(err));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body === undefined ? undefined : JSON.stringify(body));
}

/** The service's error envelope (docs/errors.md). */
export function fail(
  res: ServerResponse,
  status: number,
  code: string,
  extra: { details?: unknown[]; headers?: Record<string, string> } = {},
): void {
  const requestId = `req_${code.toLowerCase()}`;
  json(
    res,
    status,
    {
      error: {
        code,
        message: `${code} happened`,
        doc_url: `https://docs.convo-kit.dev/errors#${code}`,
        request_id: requestId,
        details: extra.details,
      },
    },
    { 'x-request-id': requestId, ...extra.headers },
  );
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
