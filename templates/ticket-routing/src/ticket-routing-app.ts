import { mkdirSync } from 'node:fs';
import { type RequestListener } from 'node:http';
import { dirname } from 'node:path';
import { createClient } from 'convo-kit/client';
import {
  createReceiver,
  INSPECTOR_PATH,
  localRequestRefusal,
  type Receiver,
  type ReceiverOptions,
  serve,
} from 'convo-kit/receiver';
import { type AppConfig } from './app-config.js';
import { AssignmentBook } from './assignment-book.js';
import { loadRoutingConfig } from './routing-config.js';
import { loadOpenTickets } from './routing-handlers.js';
import { type RouteOutcome, type RoutingContext } from './routing-context.js';
import { registerTicketRouting } from './register-ticket-routing.js';
import { type Escalation, startSlaWatch } from './sla-watch.js';

export const WEBHOOK_PATH = '/webhooks';
const RECENT_OUTCOMES = 100;

export interface TicketRoutingApp {
  url: string;
  webhookUrl: string;
  /** The delivery inspector page. */
  inspectorUrl: string;
  ctx: RoutingContext;
  receiver: Receiver;
  close(): Promise<void>;
}

/**
 * Validates the rules (a bad rule stops it here), fills the load book from the open tickets, then
 * routes from ticket events and watches SLAs. GET /api/routing shows loads and recent outcomes.
 */
export interface TicketRoutingAppOptions {
  /** Overrides the config's secret, e.g. a provider for a secret known only after the webhook is registered. */
  secrets?: ReceiverOptions['secrets'];
  /** Receiver settings beyond the secret and store (logger, concurrency, …). */
  receiver?: Omit<ReceiverOptions, 'secret' | 'secrets' | 'store' | 'dbPath'>;
  /** The clock routing and the SLA watch read. @default () => new Date() */
  now?: () => Date;
  /** Host to bind. @default '127.0.0.1' */
  host?: string;
  /** Answers GET /metrics (Prometheus, from `startTelemetry` of convo-kit/telemetry when OTEL_METRICS_EXPORTER=prometheus). @default none */
  metrics?: RequestListener;
}

export async function startTicketRouting(
  config: AppConfig,
  options: TicketRoutingAppOptions = {},
): Promise<TicketRoutingApp> {
  const rules = loadRoutingConfig(config.rulesPath);
  mkdirSync(dirname(config.deliveriesDbPath), { recursive: true });
  const recent: (RouteOutcome | Escalation)[] = [];
  const remember = (item: RouteOutcome | Escalation): void =>
    void (recent.unshift(item) > RECENT_OUTCOMES && recent.pop());
  const ctx: RoutingContext = {
    config: rules,
    book: new AssignmentBook(rules),
    client: createClient({ apiKey: config.apiKey, baseUrl: config.baseUrl }),
    now: options.now,
    onRouted: remember,
  };
  await loadOpenTickets(ctx);
  const receiver = registerTicketRouting(
    createReceiver({
      ...options.receiver,
      secrets: options.secrets ?? config.webhookSecret,
      dbPath: config.deliveriesDbPath,
      // Handlers call the service through ctx.client, this client bound to their event (each call a journaled step).
      client: ctx.client,
    }),
    ctx,
  );
  const stopSla = startSlaWatch(ctx, remember, (error) => receiver.log.error({ err: error }, 'SLA check failed'));
  // The webhook, the inspector, /healthz, /readyz and /metrics are answered by `serve`; what else this app
  // serves answers this machine's own page only, by the kit's rule for local pages.
  const routes: RequestListener = (req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const refused = localRequestRefusal(req, { page: 'routing API' });
    if (refused !== undefined) {
      req.resume();
      res.writeHead(refused.status, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: { code: refused.code, message: refused.message } }));
    }
    if (req.method === 'GET' && path === '/') {
      // The URL `npm run dev` prints: what is here.
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({
          app: 'ticket-routing',
          webhook: `POST ${WEBHOOK_PATH}`,
          routing: '/api/routing',
          inspector: INSPECTOR_PATH,
        }),
      );
    }
    if (req.method === 'GET' && path === '/api/routing') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ loads: ctx.book.loads(), recent }));
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'NOT_FOUND', message: `No route for ${req.method} ${path}` } }));
  };
  const served = await serve(receiver, {
    port: config.port,
    host: options.host,
    webhookPath: WEBHOOK_PATH,
    inspector: { token: config.inspectorToken },
    metrics: options.metrics,
    routes,
  }).catch((error: unknown) => {
    stopSla();
    throw error;
  });
  return {
    url: served.url,
    webhookUrl: served.webhookUrl,
    inspectorUrl: `${served.url}${INSPECTOR_PATH}`,
    ctx,
    receiver,
    close: async () => {
      stopSla();
      await served.close();
    },
  };
}
