import { z } from 'zod';
import { type EndpointDef } from '../api/endpoint.js';
import { apiErrorFrom } from './api-error-from.js';
import { ApiPromise, type WithResponse } from './api-promise.js';
import { type ClientSettings, checkRequestOptions, type RequestOptions } from './client-options.js';
import { type FieldIssue, issuePath, ResponseValidationError } from './client-errors.js';
import { page, type Page } from '../api/schemas/page.js';
import { PagePromise } from './page-promise.js';
import { prepareInput } from './prepare-input.js';
import { type RawResponse, responseMeta } from './response-meta.js';
import { send } from './transport.js';

function appendQuery(url: URL, query: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      url.searchParams.append(key, typeof item === 'object' ? JSON.stringify(item) : String(item));
    }
  }
}

function encodeBody(
  def: EndpointDef,
  body: Record<string, unknown>,
): { body: string | FormData; contentType?: string } {
  if (!def.multipart) return { body: JSON.stringify(body), contentType: 'application/json' };
  // fetch writes the multipart boundary into Content-Type itself.
  const form = new FormData();
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    form.append(key, value instanceof Blob ? value : typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return { body: form };
}

const ANY_PAGE = page(z.unknown());

function parseData(id: string, def: EndpointDef, raw: RawResponse, validate: boolean): unknown {
  const requestId = raw.headers.get('x-request-id');
  // Even unvalidated, a value typed as the route's response is never a page of HTML or half a JSON text.
  if (raw.bodyProblem) {
    throw new ResponseValidationError(raw.bodyProblem.code, id, {
      status: raw.status,
      requestId,
      message: raw.bodyProblem.message,
    });
  }
  if (raw.body === undefined && raw.status === 204) return undefined;
  // Unvalidated, a list answer is still checked as a page: the walk reads `data` and `pagination` and
  // would otherwise fail as a TypeError far from its cause.
  const schema = validate ? def.response : def.paginated ? ANY_PAGE : undefined;
  if (schema === undefined) return raw.body;
  const result = schema.safeParse(raw.body);
  if (result.success) return result.data;
  const issues: FieldIssue[] = result.error.issues.map((i) => ({ path: issuePath(i.path), message: i.message }));
  throw new ResponseValidationError('INVALID_RESPONSE', id, { status: raw.status, requestId, issues });
}

/**
 * On a route that takes an Idempotency-Key, a key given as a per-call header is the call's key, checked
 * like `idempotencyKey` and sent unchanged on every retry; `idempotencyKey` wins when both are given.
 */
function withHeaderKey(def: EndpointDef, input: unknown, options: { headers: Record<string, string> }): unknown {
  const header = Object.entries(options.headers).find(([name]) => name.toLowerCase() === 'idempotency-key');
  if (def.idempotencyKey !== 'required' || header === undefined) return input;
  if (input === undefined) return { idempotencyKey: header[1] };
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input; // refused by prepareInput
  return (input as { idempotencyKey?: unknown }).idempotencyKey === undefined
    ? { ...input, idempotencyKey: header[1] }
    : input;
}

/**
 * Would the service act the same if this request arrived twice? A POST only on the routes that take an
 * Idempotency-Key (the service ignores one elsewhere). A conditional write (If-Match) would meet its own
 * first attempt's new version and fail as a 409 VERSION_CONFLICT with itself, so it is not replayed either.
 */
function replaySafe(def: EndpointDef, headers: Record<string, string>): boolean {
  if (def.method === 'POST') return def.idempotencyKey === 'required';
  return def.method === 'GET' || headers['if-match'] === undefined;
}

async function perform(
  settings: ClientSettings,
  id: string,
  def: EndpointDef,
  input: unknown,
  callOptions: RequestOptions,
): Promise<WithResponse<unknown>> {
  const options = checkRequestOptions(callOptions);
  const prepared = prepareInput(id, def, withHeaderKey(def, input, options));
  const url = new URL(settings.baseUrl + prepared.path);
  appendQuery(url, prepared.query);

  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': settings.userAgent,
    ...prepared.headers,
  };
  if (def.auth !== false) headers.authorization = `Bearer ${settings.apiKey}`;
  for (const [name, value] of Object.entries(options.headers)) {
    // The call's key is the checked one prepareInput chose (the header's own, moved there by withHeaderKey).
    if (name.toLowerCase() !== 'idempotency-key' || def.idempotencyKey !== 'required')
      headers[name.toLowerCase()] = value;
  }
  let body: string | FormData | undefined;
  if (prepared.body !== undefined) {
    const encoded = encodeBody(def, prepared.body);
    body = encoded.body;
    if (encoded.contentType) headers['content-type'] = encoded.contentType;
  }

  const call = settings.telemetry?.start(id, def.method, def.path, url);
  call?.inject(headers);
  const sending = () =>
    send(
      {
        endpoint: id,
        method: def.method,
        url: url.href,
        headers,
        body,
        replaySafe: replaySafe(def, headers),
        idempotencyKey: prepared.idempotencyKey,
      },
      {
        ...settings,
        timeoutMs: options.timeoutMs ?? settings.timeoutMs,
        totalTimeoutMs: options.totalTimeoutMs ?? settings.totalTimeoutMs,
        maxRetries: options.maxRetries ?? settings.maxRetries,
      },
      options.signal,
    );
  let raw: RawResponse;
  try {
    raw = call ? await call.run(sending) : await sending();
  } catch (error) {
    call?.end({ attempts: (error as { attempts?: number }).attempts ?? 1, error });
    throw error;
  }
  call?.end({ status: raw.status, attempts: raw.attempts });
  if (raw.status < 200 || raw.status > 299) throw apiErrorFrom(raw);
  const data = parseData(id, def, raw, settings.validateResponses);
  return { data, response: responseMeta(raw, prepared.idempotencyKey) };
}

/** Runs one method call of the table: an ApiPromise, or a PagePromise for paginated routes. */
export function callEndpoint(
  settings: ClientSettings,
  id: string,
  def: EndpointDef,
  input: unknown,
  options: RequestOptions = {},
): ApiPromise<unknown> {
  const first = perform(settings, id, def, input, options);
  if (!def.paginated) return new ApiPromise(first);
  const base = typeof input === 'object' && input !== null ? input : {};
  return new PagePromise(first as Promise<WithResponse<Page<unknown>>>, {
    endpoint: id,
    startCursor: typeof (base as { cursor?: unknown }).cursor === 'string' ? (base as { cursor: string }).cursor : null,
    maxPages: settings.maxPages,
    logger: settings.logger,
    next: (cursor) => perform(settings, id, def, { ...base, cursor }, options) as Promise<WithResponse<Page<unknown>>>,
  });
}
