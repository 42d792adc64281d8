import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { mountAt } from '../console/serve-page.js';
import { INSPECTOR_PATH, type InspectorOptions } from '../console/inspector/index.js';
import type { CloseOptions, Receiver } from './create-receiver.js';
import { LIVENESS_PATH, READINESS_PATH } from './health-routes.js';
import { closeServer, listenServer, notFound, type ListenOptions } from '../internal/listen-server.js';

/** Where `serve` answers Prometheus scrapes, when given `metrics`. */
export const METRICS_PATH = '/metrics';

export interface ServeOptions extends ListenOptions {
  /** Where the service POSTs deliveries. @default '/webhooks' */
  webhookPath?: string;
  /**
   * The delivery inspector, mounted at `/_inspector` with these options (a `token` opens it to other
   * machines). @default not mounted
   */
  inspector?: InspectorOptions;
  /**
   * Answers `GET /metrics`, e.g. a Prometheus exporter's handler:
   * `(req, res) => exporter.getMetricsRequestHandler(req, res)`. @default no /metrics (404 from `routes`)
   */
  metrics?: RequestListener;
  /** Runs after the receiver and the server closed: the app's own databases, timers. */
  onClose?: () => unknown;
}

export interface Served {
  /** e.g. http://127.0.0.1:3100 */
  url: string;
  webhookUrl: string;
  server: Server;
  /**
   * Graceful, for SIGTERM (docs/operations.md, "Rolling deploys"): the receiver closes first, so deliveries
   * arriving meanwhile get 503 with Retry-After and /readyz says 503 while handlers finish within
   * `deadlineMs`; then the server, then `onClose`. Calling it again answers the same promise.
   */
  close(options?: CloseOptions): Promise<void>;
}

/**
 * Starts `receiver` and serves it on one port: the webhook, `/healthz` and `/readyz`, `/metrics` (given
 * `metrics`), the inspector (given `inspector`), and the app's own `routes` for the rest. These are
 * answered before `routes`, so an app's rule for its own pages (such as `localRequestRefusal`) does not
 * keep a load balancer or Prometheus out; none of them changes state but the webhook, which is signed.
 * @example
 * const served = await serve(receiver, { port: 3000, routes: app });
 * closeOnSignals(() => served.close());
 */
export async function serve(receiver: Receiver, options: ServeOptions): Promise<Served> {
  const webhookPath = options.webhookPath ?? '/webhooks';
  const health = receiver.healthRoutes();
  const inspector = options.inspector ? mountAt(INSPECTOR_PATH, receiver.inspector(options.inspector)) : undefined;
  const routes = options.routes ?? notFound;
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === webhookPath) return receiver.listener(req, res);
    if (path === LIVENESS_PATH || path === READINESS_PATH) return health(req, res);
    if (path === METRICS_PATH && options.metrics) return options.metrics(req, res);
    if (inspector?.(req, res)) return;
    return routes(req, res);
  };
  // What Node's HTTP parser refuses is answered in the receiver's error envelope too.
  const server = receiver.createServer(listener);
  await receiver.start();
  let url: string;
  try {
    url = await listenServer(server, options);
  } catch (error) {
    // A port in use (EADDRINUSE): nothing was served, so the receiver stops too and the error is the caller's.
    await receiver.close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    url,
    webhookUrl: `${url}${webhookPath}`,
    server,
    close(closeOptions) {
      closing ??= (async () => {
        await receiver.close(closeOptions);
        await closeServer(server);
        await options.onClose?.();
      })();
      return closing;
    },
  };
}
