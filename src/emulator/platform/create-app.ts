import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { routingOrder, type EndpointEntry } from '../../api/all-endpoints.js';
import type { EndpointDef } from '../../api/endpoint.js';
import { ProviderPutByPath } from '../../api/schemas/provider-config.js';
import { LoopbackTolerantWebhookCreate } from '../../api/schemas/webhook-endpoint.js';
import { ApiFailure } from '../api-failure.js';
import type { RouteHandler, RouteHandlerTable } from '../route-handler.js';
import { ANONYMOUS, recordRequest } from '../state/request-stats.js';
import { CONSOLE_ASSETS, serveConsole, serveConsoleModule } from '../../console/emulator-console/index.js';
import { CONSOLE_CONVERSATIONS_PATH, consoleConversations } from './console-conversations.js';
import { controlsRouter, type EmulatorControl } from './controls-router.js';
import { STATE_PATH, stateRouter } from '../saved-state/state-routes.js';
import type { EmulatorServices } from './emulator-services.js';
import { requestId } from './request-id.js';
import { emulatorTelemetry } from '../../telemetry/emulator-telemetry.js';
import { OPENAPI_PATH, serveOpenapi } from './serve-openapi.js';
import { checkPercentEncoding } from './percent-encoding.js';
import { apiRoutes } from './api-routes.js';
import { endpointRoute } from './route-endpoint.js';
import { asFailure, sendFailure } from './send-failure.js';

/**
 * Where the emulator reads a body differently from the table: loopback URLs for local receivers (docs/keys-and-limits.md);
 * provider `config`, checked by the handler against the table of the provider the path names, which also
 * lets a local custom reply endpoint in (docs/ai-and-knowledge.md).
 */
export const EMULATOR_OVERRIDES: Record<string, Partial<EndpointDef>> = {
  'webhooks.create': { body: LoopbackTolerantWebhookCreate },
  'groups.putProvider': { body: ProviderPutByPath },
  'channels.putProvider': { body: ProviderPutByPath },
};

function handlerOf(registry: RouteHandlerTable, entry: EndpointEntry): RouteHandler<EndpointDef> {
  const handler = (registry as unknown as Record<string, Record<string, RouteHandler<EndpointDef>> | undefined>)[
    entry.group
  ]?.[entry.name];
  // The registry's type makes this unreachable; a JavaScript caller still gets a clear message.
  if (!handler) throw new TypeError(`No emulator handler for ${entry.id}; add it to src/emulator/handlers`);
  return handler;
}

/** Counts a request for usage and status (after the answer, so it never delays one). */
function countAnswer(platform: EmulatorServices, res: Response): void {
  res.on('finish', () =>
    recordRequest(
      platform.ctx.db,
      typeof res.locals.apiKeyId === 'string' ? res.locals.apiKeyId : ANONYMOUS,
      platform.clock.now(),
      res.statusCode >= 500,
    ),
  );
}

/**
 * The emulator's HTTP app, derived from the contract table by one loop: every route under `/v1` and its
 * `/api/v1` alias, the `/_emulator` controls, the OpenAPI document, and the 404 envelope for anything else.
 */
export function createApp(
  platform: EmulatorServices,
  handlers: RouteHandlerTable,
  controls: readonly EmulatorControl[],
): Express {
  const app = express();
  app.disable('x-powered-by');
  // Express would add a weak ETag to every JSON answer; tickets set their own (`"<version>"`).
  app.set('etag', false);
  app.use(requestId);
  const telemetry = emulatorTelemetry();
  if (telemetry) app.use(telemetry.serverSpans as express.RequestHandler);
  const routes = routingOrder().map((entry) => ({ ...entry, def: { ...entry.def, ...EMULATOR_OVERRIDES[entry.id] } }));
  const paths = (def: EndpointDef) => [def.path, def.path.replace(/^\/v1\//, '/api/v1/')];
  app.use(
    checkPercentEncoding([
      ...routes.flatMap(({ def }) => paths(def)),
      ...controls.map((control) => `/_emulator${control.path}`),
      STATE_PATH,
    ]),
  );
  // The API routes first (no other path is under /v1 or /api/v1), each counted; what they do not match goes on.
  const api = apiRoutes(
    routes.map((entry) => {
      const route = endpointRoute(entry, handlerOf(handlers, entry), platform);
      return {
        methods: [entry.def.method, ...(entry.def.aliases ?? [])],
        paths: paths(entry.def),
        handle: (req: Request, res: Response, next: NextFunction) => {
          countAnswer(platform, res);
          return route(req, res, next);
        },
      };
    }),
  );
  app.use(api);
  app.get(OPENAPI_PATH, serveOpenapi);
  // The root says what is here (`convo-kit dev` prints this URL): the API, its description, console and controls.
  app.get('/', (_req: Request, res: Response) => {
    res.json({
      service: 'convo-kit emulator',
      api: '/v1',
      openapi: OPENAPI_PATH,
      console: '/_emulator/console',
      controls: '/_emulator',
    });
  });
  app.get(['/_emulator/console', '/_emulator/console/'], serveConsole);
  app.use(STATE_PATH, stateRouter(platform));
  app.get(`${CONSOLE_ASSETS}:name`, serveConsoleModule);
  app.get(CONSOLE_CONVERSATIONS_PATH, consoleConversations(platform));
  app.use('/_emulator', controlsRouter(platform, controls));
  // What reaches here is answered 404 below, and counted as the API's answers are.
  app.use((_req: Request, res: Response, next: NextFunction) => {
    countAnswer(platform, res);
    next();
  });
  app.use((req: Request, res: Response) => {
    sendFailure(res, new ApiFailure('NOT_FOUND', `No route ${req.method} ${req.path}`));
  });
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    // Express's own 4xx is the caller's mistake (a broken percent-encoding is answered earlier, with details).
    const status = error && typeof error === 'object' && 'status' in error ? Number(error.status) : 500;
    if (status >= 400 && status < 500) {
      return sendFailure(
        res,
        new ApiFailure(
          'VALIDATION_FAILED',
          `The request could not be read: ${error instanceof Error ? error.message.slice(0, 200) : 'malformed'}`,
        ),
      );
    }
    const { failure, unexpected } = asFailure(error);
    if (unexpected) platform.logger.error({ err: error }, 'request failed before reaching a route');
    sendFailure(res, failure);
  });
  return app;
}
