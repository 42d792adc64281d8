import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError, sendJson } from '../console/serve-page.js';
import type { ReceiverHealth } from './receiver-health.js';

export const LIVENESS_PATH = '/healthz';
export const READINESS_PATH = '/readyz';

/** Serves `/healthz` and `/readyz`; any other request goes to `next` (Express), or is answered 404. */
export type HealthRoutes = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

/** Ready: the store answered and the worker runs. A receiver shutting down is not ready, so traffic moves on. */
export const isReady = (health: ReceiverHealth) => health.store.ok && health.worker.running && !health.worker.closing;

/**
 * `GET /healthz` (liveness) answers 200 with the health whenever this process answers at all: a failing
 * store is not mended by a restart, so it never fails liveness. `GET /readyz` (readiness) answers 200 when
 * ready, else 503 with the same body. Both are read by load balancers, so nothing in them is a secret.
 */
export function healthRoutes(health: () => Promise<ReceiverHealth>): HealthRoutes {
  return (req, res, next) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    const route = path === LIVENESS_PATH || path === READINESS_PATH ? path : undefined;
    if (!route || (req.method !== 'GET' && req.method !== 'HEAD')) {
      if (next) return next();
      return sendError(res, 404, 'NOT_FOUND', `No route ${path}`);
    }
    health().then(
      (h) => sendJson(res, route === READINESS_PATH && !isReady(h) ? 503 : 200, h),
      (error: unknown) => (next ? next(error) : res.destroy(error as Error)),
    );
  };
}
