import type { Request, RequestHandler, Response } from 'express';
import type { EndpointEntry } from '../../api/all-endpoints.js';
import { takesNoBody, type EndpointDef } from '../../api/endpoint.js';
import { READ_ONLY_PLANS } from '../../api/plans.js';
import { ApiFailure } from '../api-failure.js';
import type { AuthenticatedKey, RouteHandler, RouteRequest } from '../route-handler.js';
import { JsonText, jsonTextOf } from '../state/json-text.js';
import { ANONYMOUS } from '../state/request-stats.js';
import { authenticate } from './authenticate.js';
import { buildPath } from '../../client/build-path.js';
import { IdempotencyGuard, type IdempotencyClaim, type StoredReplay, type StoredResult } from './idempotency.js';
import type { EmulatorServices } from './emulator-services.js';
import { readJsonBody } from './read-json-body.js';
import { NO_BODY } from './no-body.js';
import { maxFileBytesOf, readMultipartBody } from './read-multipart-body.js';
import { asFailure, errorEnvelope, sendFailure } from './send-failure.js';
import { sendJson } from './send-json.js';
import { requestIdOf } from './request-id.js';
import { syntheticBuilder } from './synthetic.js';
import { validateRequest } from './validate-request.js';
import { issuesText } from '../../internal/issue-text.js';

/** Who calls GET /v1/status: nobody in particular. */
const NO_KEY: AuthenticatedKey = { id: ANONYMOUS, kind: 'live', scopes: [], admin: false };

/**
 * The 429s by message (a limit and the seconds to wait: a few dozen): one failure each, made once, since
 * building an Error (its stack) for every refused request was 5% of a 429 answer's time (issue 25, point 8).
 */
const rateLimitFailures = new Map<string, ApiFailure>();

function rateLimited(message: string): ApiFailure {
  let failure = rateLimitFailures.get(message);
  if (!failure) rateLimitFailures.set(message, (failure = new ApiFailure('RATE_LIMITED', message)));
  return failure;
}

/** The checks that need a key, in the order docs/errors.md and docs/keys-and-limits.md imply; each throws the envelope's failure. */
function admit(def: EndpointDef, req: Request, res: Response, platform: EmulatorServices): AuthenticatedKey {
  const key = authenticate(req.get('authorization'), platform.keys);
  res.locals.apiKeyId = key.id;
  const rate = platform.limiter.take(key.id);
  res.set(rate.headers);
  if (!rate.allowed) {
    throw rateLimited(
      `Rate limit of ${platform.limiter.limit} requests per minute exceeded; retry after ${rate.headers['Retry-After']} s`,
    );
  }
  if (key.kind === 'test' && !def.testKeySynthetic) {
    throw new ApiFailure(
      'TEST_KEY_NOT_ALLOWED',
      'Test keys only reach the five synthetic send routes; use a live key here',
    );
  }
  if (def.scope !== null && !key.scopes.includes(def.scope)) {
    throw new ApiFailure('INSUFFICIENT_SCOPE', `This key lacks the scope ${def.scope}`, {
      details: [{ required_scope: def.scope }],
    });
  }
  if ((def.write ?? def.method !== 'GET') && READ_ONLY_PLANS.has(platform.ctx.plan)) {
    throw new ApiFailure('PLAN_READ_ONLY', `The ${platform.ctx.plan} plan is read-only; write routes need a paid plan`);
  }
  return key;
}

function send(res: Response, result: StoredResult): void {
  res.set(result.headers);
  if (result.status === 204 || result.body === undefined) res.status(result.status).end();
  else sendJson(res, result.status, jsonTextOf(result.body));
}

function normalize(def: EndpointDef, answer: unknown): StoredResult {
  if (answer && typeof answer === 'object' && 'reply' in answer && answer.reply === true) {
    const { status, body, headers } = answer as unknown as {
      status: number;
      body: unknown;
      headers?: Record<string, string>;
    };
    return { status, body, headers: headers ?? {} };
  }
  const status = def.status ?? 200;
  return { status, body: status === 204 ? undefined : answer, headers: {} };
}

/**
 * One route of the table, from request to answer: auth, rate limit, test key, scope, plan, body,
 * Idempotency-Key, validation, then the handler. What is refused before the key is claimed (401, 403,
 * 429, an unreadable body's 413, 415 or 400, a missing key) is never kept: there is no accepted key, or
 * no JSON body to compare a retry with as canonical JSON (decisions §5).
 */
export function endpointRoute(
  entry: EndpointEntry,
  handler: RouteHandler<EndpointDef>,
  platform: EmulatorServices,
): RequestHandler {
  const { id } = entry;
  const def: EndpointDef = takesNoBody(entry.def) ? { ...entry.def, body: NO_BODY } : entry.def;
  const parsesJson = def.body !== undefined && !def.multipart;
  const maxFileBytes = def.multipart ? maxFileBytesOf(def.body) : 0;
  const synthetic = def.testKeySynthetic ? syntheticBuilder(id) : undefined;
  return async (req, res) => {
    let claim: IdempotencyClaim | undefined;
    try {
      const key = def.auth === false ? NO_KEY : admit(def, req, res, platform);
      const raw = def.multipart
        ? await readMultipartBody(req, maxFileBytes)
        : parsesJson
          ? await readJsonBody(req, res)
          : undefined;
      const idempotencyKey =
        def.idempotencyKey === 'required' ? IdempotencyGuard.requireKey(req.get('idempotency-key')) : undefined;
      const rawRequest = { params: req.params, query: req.query, body: raw, headers: req.headers };
      if (key.kind === 'test' && synthetic) {
        // A test key's answer is never stored (docs/keys-and-limits.md, Test keys), so no key is claimed.
        const input = validateRequest(def, rawRequest) as RouteRequest<EndpointDef>;
        return send(res, { status: 201, body: synthetic(input, platform.clock), headers: {} });
      }
      if (idempotencyKey !== undefined) {
        // The route's own path with its decoded params, not the request's spelling: Express routes
        // /V1/messages, /v1/messages/ and a percent-encoded id to the same handler, so they share one key.
        const path = buildPath(def.path, req.params).path;
        const outcome = platform.idempotency.begin(
          { apiKeyId: key.id, method: def.method, path, key: idempotencyKey },
          raw,
        );
        if ('replay' in outcome) return sendReplay(res, outcome.replay);
        claim = outcome.claim;
      }
      // Validated under the claim: a 400 or 422 for this body is a kept result like any other non-5xx,
      // non-429 one (decisions §5), so the same key with another body is 409 IDEMPOTENCY_KEY_REUSED.
      const input = validateRequest(def, rawRequest);
      const request = { ...input, key, requestId: requestIdOf(res) } as RouteRequest<EndpointDef>;
      const result = normalize(def, await handler(request, platform.ctx));
      if (platform.checkResponses && result.status < 300) checkResponse(id, def, result);
      if (claim) platform.idempotency.finish(claim, result);
      send(res, result);
    } catch (error) {
      const { failure, unexpected } = asFailure(error);
      if (unexpected) platform.logger.error({ err: error, route: id, request_id: requestIdOf(res) }, 'handler failed');
      if (claim) {
        platform.idempotency.finish(claim, {
          status: failure.status,
          body: errorEnvelope(failure, requestIdOf(res)),
          headers: failure.headers ?? {},
        });
      }
      sendFailure(res, failure);
    }
  };
}

/**
 * A stored answer again, marked as such: the stored status and the stored bytes, unchanged (a stored error
 * keeps the request_id of the request that produced it); only X-Request-ID is this request's own
 * (docs/keys-and-limits.md, Idempotency).
 */
function sendReplay(res: Response, stored: StoredReplay): void {
  send(res, {
    status: stored.status,
    body: stored.json === null ? undefined : new JsonText(stored.json),
    headers: { ...stored.headers, 'Idempotent-Replayed': 'true' },
  });
}

function checkResponse(id: string, def: EndpointDef, result: StoredResult): void {
  if (result.status === 204) return;
  const parsed = def.response.safeParse(result.body instanceof JsonText ? result.body.parse() : result.body);
  if (!parsed.success) {
    throw new TypeError(
      `${id} answered a body its response schema refuses: ${issuesText(parsed.error.issues, 'the body')}`,
    );
  }
}
