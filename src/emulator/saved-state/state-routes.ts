import { Router, type Request } from 'express';
import { NO_QUERY } from '../../api/endpoint.js';
import { ApiFailure } from '../api-failure.js';
import type { EmulatorServices } from '../platform/emulator-services.js';
import { readJsonBody } from '../platform/read-json-body.js';
import { requireAdmin, sendControlError } from '../platform/require-admin.js';
import { validateRequest } from '../platform/validate-request.js';
import { stateText } from './export-state.js';
import { MAX_STATE_BYTES, STATE_KEY_HEADER, STATE_PATH } from './state-document.js';

export { STATE_PATH };
import { checkStateKey } from './state-key.js';

const stateKeyOf = (req: Request): string | undefined => {
  const key = req.get(STATE_KEY_HEADER);
  return key === undefined ? undefined : checkStateKey(key, STATE_KEY_HEADER);
};

const noQuery = (req: Request) =>
  validateRequest({ query: NO_QUERY }, { params: {}, query: req.query, body: undefined, headers: {} });

/**
 * `GET /_emulator/state` answers the workspace as a state document; `PUT` replaces it with one (docs/emulator.md,
 * "Saving and loading state"). Both behind the admin key and the local-page rule, as the other controls; the
 * document holds key hashes and sealed secrets, so it is never cached.
 */
export function stateRouter(platform: EmulatorServices): Router {
  const router = Router();
  router.get('/', (req, res) => {
    try {
      requireAdmin(req, platform.keys);
      noQuery(req);
      const text = stateText(platform.state.export({ stateKey: stateKeyOf(req) }));
      res.set('cache-control', 'no-store').type('application/json').send(text);
    } catch (error) {
      sendControlError(res, error, platform.logger, '/state');
    }
  });
  router.put('/', async (req, res) => {
    try {
      requireAdmin(req, platform.keys);
      noQuery(req);
      const stateKey = stateKeyOf(req);
      const raw = await readJsonBody(req, res, MAX_STATE_BYTES);
      if (raw === undefined) {
        throw new ApiFailure(
          'VALIDATION_FAILED',
          'Send the state document as the body (GET /_emulator/state writes one)',
          {
            details: [{ path: '', in: 'body', message: 'required' }],
          },
        );
      }
      res.json(platform.state.import(raw, { stateKey }));
    } catch (error) {
      sendControlError(res, error, platform.logger, '/state');
    }
  });
  return router;
}
