import type { RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What `serve` (convo-kit/receiver) and `serveReply` (convo-kit/reply) take alike. */
export interface ListenOptions {
  /** The port to listen on; 0 picks a free one. */
  port: number;
  /** The address to bind. @default '127.0.0.1' */
  host?: string;
  /** Every other request: the app's own pages and API. @default 404 in the kit's error envelope */
  routes?: RequestListener;
}

/** Listens on `port` (0 picks a free one) at `host`; answers the server's URL, e.g. http://127.0.0.1:3100. */
export async function listenServer(
  server: Server,
  { port, host = '127.0.0.1' }: Pick<ListenOptions, 'port' | 'host'>,
): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port: bound } = server.address() as AddressInfo;
  return `http://${address.includes(':') ? `[${address}]` : address}:${bound}`;
}

/** Stops the server: idle keep-alive connections are ended rather than waited for. */
export function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A server's answer to a path it does not serve, in the kit's error envelope. */
export const notFound: RequestListener = (req, res) => {
  req.resume();
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { code: 'NOT_FOUND', message: `No route for ${req.method} ${req.url}` } }));
};
