import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { closeServer, listenServer, notFound, type ListenOptions } from '../internal/listen-server.js';
import type { ReplyEndpoint } from './create-reply-endpoint.js';

export interface ServeReplyOptions extends ListenOptions {
  /** Where the service POSTs reply requests: the provider's `config.url` ends with it. @default '/reply' */
  replyPath?: string;
  /** Runs after the server closed: the app's own files, timers. */
  onClose?: () => unknown;
}

export interface ServedReply {
  /** e.g. http://127.0.0.1:3300 */
  url: string;
  /** The provider's `config.url`, e.g. http://127.0.0.1:3300/reply */
  replyUrl: string;
  server: Server;
  /** Stops listening (idle keep-alive connections end at once), then runs `onClose`. Calling it again answers the same promise. */
  close(): Promise<void>;
}

/**
 * Serves `endpoint` on one port, as `serve` from `convo-kit/receiver` serves a receiver: reply requests at
 * `replyPath`, the app's own `routes` for the rest, and what Node's HTTP parser refuses in the endpoint's
 * error envelope.
 * @example
 * const served = await serveReply(endpoint, { port: 3300 });
 * closeOnSignals(() => served.close());
 */
export async function serveReply(endpoint: ReplyEndpoint, options: ServeReplyOptions): Promise<ServedReply> {
  const replyPath = options.replyPath ?? '/reply';
  const routes = options.routes ?? notFound;
  const server = endpoint.createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    return path === replyPath ? endpoint.listener(req, res) : routes(req, res);
  });
  const url = await listenServer(server, options);
  let closing: Promise<void> | undefined;
  return {
    url,
    replyUrl: `${url}${replyPath}`,
    server,
    close() {
      closing ??= (async () => {
        await closeServer(server);
        await options.onClose?.();
      })();
      return closing;
    },
  };
}
