import { Router } from 'express';
import { z } from 'zod';
import { NO_QUERY } from '../../api/endpoint.js';
import type { ErrorCode } from '../../api/error-codes.js';
import type { EmulatorClock } from '../clock.js';
import type { Dispatcher } from '../dispatch/dispatcher.js';
import type { EmulatorContext } from '../route-handler.js';
import type { EmulatorServices } from './emulator-services.js';
import { readJsonBody } from './read-json-body.js';
import { requireAdmin, sendControlError } from './require-admin.js';
import { NO_BODY } from './no-body.js';
import { OPENAPI_PATH } from './serve-openapi.js';
import { STATE_CAPABILITY } from '../saved-state/state-document.js';
import { asFailure, sendFailure } from './send-failure.js';
import { validateRequest } from './validate-request.js';

/** What a control may touch: the route handlers' context, the clock that moves, and the reset to the seed. */
export interface ControlContext extends EmulatorContext {
  clock: EmulatorClock;
  reset(): void;
  dispatcher: Pick<Dispatcher, 'resend' | 'chaos'>;
}

/**
 * One `/_emulator/*` route: plays the customer, the provider or time (docs/emulator.md). The same
 * declaration mounts it and documents it (`convo-kit openapi --emulator`): its zod schemas validate the
 * request and become the document's schemas.
 */
export interface EmulatorControl {
  /** Relative to `/_emulator`, Express style: `/templates/:id/review`. */
  path: string;
  /** What it plays, in one sentence: the operation's summary. */
  summary: string;
  params?: z.ZodObject;
  body?: z.ZodObject;
  /** The answer's body. */
  response: z.ZodType;
  /** @default 200 */
  status?: number;
  /** Codes it answers besides those its schemas and the admin key imply (e.g. `NOT_FOUND` for an id in the body). */
  errors?: readonly ErrorCode[];
  run(ctx: ControlContext, input: { params: never; body: never }): unknown;
}

/** Declares a control with its input typed from its schemas. */
export function control<P extends z.ZodObject | undefined, B extends z.ZodObject | undefined>(def: {
  path: string;
  summary: string;
  params?: P;
  body?: B;
  response: z.ZodType;
  status?: number;
  errors?: readonly ErrorCode[];
  run(
    ctx: ControlContext,
    input: {
      params: P extends z.ZodObject ? z.output<P> : Record<string, never>;
      body: B extends z.ZodObject ? z.output<B> : Record<string, never>;
    },
  ): unknown;
}): EmulatorControl {
  return def as EmulatorControl;
}

/**
 * `GET /_emulator`: what the controls are, with the JSON Schema of each body, the emulator's time, and where
 * its console and the service's OpenAPI document are.
 * Public like the OpenAPI document: it names routes, never data.
 */
function controlsIndex(platform: EmulatorServices, controls: readonly EmulatorControl[]) {
  return {
    now: platform.clock.iso(),
    console: '/_emulator/console',
    openapi: OPENAPI_PATH,
    controls: controls.map((item) => ({
      method: 'POST',
      path: `/_emulator${item.path}`,
      body: item.body ? z.toJSONSchema(item.body, { io: 'input' }) : null,
    })),
    state: STATE_CAPABILITY,
  };
}

/**
 * Mounts the controls (POST only), each behind the emulator's admin key, and their index. None takes a
 * query: a parameter is refused by name as on the contract routes (NO_QUERY), never ignored.
 */
export function controlsRouter(platform: EmulatorServices, controls: readonly EmulatorControl[]): Router {
  const router = Router();
  router.get('/', (req, res) => {
    try {
      validateRequest({ query: NO_QUERY }, { params: {}, query: req.query, body: undefined, headers: {} });
      res.json(controlsIndex(platform, controls));
    } catch (error) {
      sendFailure(res, asFailure(error).failure);
    }
  });
  const ctx: ControlContext = {
    ...platform.ctx,
    clock: platform.clock,
    reset: platform.reset,
    dispatcher: platform.dispatcher,
  };
  for (const item of controls) {
    router.post(item.path, async (req, res) => {
      try {
        requireAdmin(req, platform.keys);
        const raw = await readJsonBody(req, res);
        const input = validateRequest(
          { ...item, body: item.body ?? NO_BODY, query: NO_QUERY },
          { params: req.params, query: req.query, body: raw, headers: {} },
        );
        const result: unknown = await item.run(ctx, input as unknown as { params: never; body: never });
        res.status(item.status ?? 200).json(result ?? {});
      } catch (error) {
        sendControlError(res, error, platform.logger, item.path);
      }
    });
  }
  return router;
}
