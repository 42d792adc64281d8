import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { localRequestRefusal } from '../../console/local-only.js';
import { ApiFailure } from '../api-failure.js';
import type { AuthenticatedKey } from '../route-handler.js';
import type { KeyStore } from '../state/key-store.js';
import { authenticate } from './authenticate.js';
import { requestIdOf } from './request-id.js';
import { asFailure, errorEnvelope, sendFailure } from './send-failure.js';

/** 403 `FORBIDDEN`, as the console and the inspector answer a request from another site's page. */
class CrossSiteRefusal extends Error {}

/**
 * The gate of every `/_emulator` control: the one local-page rule (src/console/local-only.ts), no other site's
 * page, then the emulator's admin key. The rule's media-type half is readJsonBody's: a body that is not exactly
 * application/json is 415 there, and a control that takes none (`reset`) is called without one.
 */
export function requireAdmin(req: Request, keys: KeyStore): AuthenticatedKey {
  const refused = localRequestRefusal(req, { page: 'emulator', access: { kind: 'caller-checked' } });
  if (refused?.status === 403) throw new CrossSiteRefusal(refused.message);
  const key = authenticate(req.get('authorization'), keys);
  if (!key.admin) {
    throw new ApiFailure('INSUFFICIENT_SCOPE', "Only the emulator's admin key may use /_emulator routes", {
      details: [{ required_scope: 'emulator:admin' }],
    });
  }
  return key;
}

/** A control's error answer: the envelope of its ApiFailure, the 403 of the local-page rule, or a logged 500. */
export function sendControlError(res: Response, error: unknown, logger: Logger, control: string): void {
  if (error instanceof CrossSiteRefusal) {
    res
      .status(403)
      .json(errorEnvelope({ code: 'FORBIDDEN', message: error.message, details: undefined }, requestIdOf(res)));
    return;
  }
  const { failure, unexpected } = asFailure(error);
  if (unexpected) logger.error({ err: error, control }, 'emulator control failed');
  sendFailure(res, failure);
}
