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
import { type CrmContext } from './crm-context.js';
import { openCrmDatabase } from './crm-database.js';
import { crmRoutes } from './crm-http.js';
import { CRM_PANELS, type PageLink, type Panel } from './crm-page.js';
import { HttpError, type Route, serveRoutes } from './http-json.js';
import { registerCrmSync } from './register-crm-sync.js';

export const WEBHOOK_PATH = '/webhooks';

export interface CrmSyncAppOptions {
  /** Overrides the config's secret, e.g. a provider for a secret known only after the webhook is registered. */
  secrets?: ReceiverOptions['secrets'];
  /** Receiver settings beyond the secret and store (logger, concurrency, …). */
  receiver?: Omit<ReceiverOptions, 'secret' | 'secrets' | 'store' | 'dbPath'>;
  /** More handlers on the same receiver (the sample integration adds ticket routing). */
  register?: (receiver: Receiver) => void;
  /** More HTTP routes, tried before the CRM's own (given the receiver, e.g. to list its deliveries, and the CRM). */
  routes?: (receiver: Receiver, ctx: CrmContext) => Route[];
  /** The page's title and panels. @default 'CRM', the CRM panels */
  title?: string;
  panels?: Panel[];
  /** More links in the page's header, after the delivery inspector's. */
  links?: PageLink[];
  /** Host to bind. @default '127.0.0.1' */
  host?: string;
  /** Answers GET /metrics (Prometheus, from `startTelemetry` of convo-kit/telemetry when OTEL_METRICS_EXPORTER=prometheus). @default none */
  metrics?: RequestListener;
}

export interface CrmSyncApp {
  /** The page and JSON API, e.g. http://127.0.0.1:3000 */
  url: string;
  /** Where the service delivers events. */
  webhookUrl: string;
  /** The delivery inspector page. */
  inspectorUrl: string;
  ctx: CrmContext;
  receiver: Receiver;
  close(): Promise<void>;
}

/** Opens the CRM tables, starts the receiver with the CRM handlers and serves the webhook, the API and the page. */
export async function startCrmSync(config: AppConfig, options: CrmSyncAppOptions = {}): Promise<CrmSyncApp> {
  for (const path of [config.crmDbPath, config.deliveriesDbPath]) mkdirSync(dirname(path), { recursive: true });
  const ctx: CrmContext = {
    db: openCrmDatabase(config.crmDbPath),
    client: createClient({ apiKey: config.apiKey, baseUrl: config.baseUrl }),
    windowClosedTemplate: config.windowClosedTemplate,
    autoReply: config.autoReply,
  };
  const receiver = createReceiver({
    ...options.receiver,
    secrets: options.secrets ?? config.webhookSecret,
    dbPath: config.deliveriesDbPath,
    // Handlers call the service through ctx.client, this client bound to their event (each call a journaled step).
    client: ctx.client,
  });
  registerCrmSync(receiver, ctx);
  options.register?.(receiver);
  // The page and its API answer this machine's own page only, by the kit's rule for local pages (as the
  // inspector does): not another site's page (a no-cors POST could send messages with the live key), not a
  // DNS-rebound host name, and changes only as application/json. The webhook, the inspector, /healthz,
  // /readyz and /metrics are answered before it, by `serve`.
  const localOnly: Route = async (req) => {
    const refused = localRequestRefusal(req, { page: 'CRM' });
    if (refused === undefined) return false;
    req.resume();
    throw new HttpError(refused.status, refused.code, refused.message);
  };
  const served = await serve(receiver, {
    port: config.port,
    host: options.host,
    webhookPath: WEBHOOK_PATH,
    inspector: { token: config.inspectorToken },
    metrics: options.metrics,
    routes: serveRoutes(
      [
        localOnly,
        ...(options.routes?.(receiver, ctx) ?? []),
        crmRoutes(ctx, {
          title: options.title,
          panels: options.panels ?? CRM_PANELS,
          links: [{ label: 'Delivery inspector', href: INSPECTOR_PATH }, ...(options.links ?? [])],
        }),
      ],
      (error) => receiver.log.error({ err: error }, 'CRM API failure'),
    ),
    onClose: () => ctx.db.close(),
  }).catch((error: unknown) => {
    ctx.db.close();
    throw error;
  });
  return {
    url: served.url,
    webhookUrl: served.webhookUrl,
    inspectorUrl: `${served.url}${INSPECTOR_PATH}`,
    ctx,
    receiver,
    close: () => served.close(),
  };
}
