import type { EndpointDef } from '../endpoint.js';
import type { EndpointEntry } from '../all-endpoints.js';
import { IdempotencyKey } from '../schemas/common.js';
import { ERROR_STATUS, type ErrorCode } from '../error-codes.js';
import type { JsonSchema, SchemaConverter } from './json-schema.js';
import { ETAG_ROUTES, RATE_LIMIT_HEADERS, headerObjects, type HeaderName } from './response-headers.js';
import { ERROR_WHEN, routeErrorCodes } from './route-errors.js';

/** `/v1/tickets/:id` -> `/v1/tickets/{id}`. */
export function openapiPath(path: string): string {
  return path.replace(/:([A-Za-z_]\w*)/g, '{$1}');
}

/** `if-match` -> `If-Match`. */
const headerName = (key: string) =>
  key.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());

function parameters(def: EndpointDef, schemas: SchemaConverter): JsonSchema[] {
  const out: JsonSchema[] = [];
  if (def.params)
    for (const p of schemas.properties(def.params, 'input'))
      out.push({ name: p.name, in: 'path', required: true, schema: p.schema });
  if (def.query)
    for (const p of schemas.properties(def.query, 'input'))
      out.push({ name: p.name, in: 'query', required: p.required, schema: p.schema });
  if (def.idempotencyKey) {
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      description:
        'An identical retry replays the stored result (Idempotent-Replayed: true); the same key with another body is 409.',
      schema: schemas.convert(IdempotencyKey, 'input'),
    });
  }
  if (def.headers) {
    for (const p of schemas.properties(def.headers, 'input'))
      out.push({ name: headerName(p.name), in: 'header', required: p.required, schema: p.schema });
  }
  return out;
}

function requestBody(def: EndpointDef, schemas: SchemaConverter): JsonSchema | undefined {
  if (!def.body) return undefined;
  const mediaType = def.multipart ? 'multipart/form-data' : 'application/json';
  return { required: true, content: { [mediaType]: { schema: schemas.convert(def.body, 'input') } } };
}

const ERROR_BODY = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } };

/** Codes grouped by status, in status order. */
export function byStatus(codes: readonly ErrorCode[]): Map<number, ErrorCode[]> {
  const out = new Map<number, ErrorCode[]>();
  for (const code of [...codes].sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b]))
    out.set(ERROR_STATUS[code], [...(out.get(ERROR_STATUS[code]) ?? []), code]);
  return out;
}

/**
 * The headers of an answer with this status. Rate-limit headers come once the key is known (not on
 * 401), and a 400 or 500 may come before that; a stored answer replayed under an Idempotency-Key is
 * a success or a handler's refusal (404, 409, 422).
 */
function headersOf(entry: EndpointEntry, status: number): JsonSchema {
  const { def } = entry;
  const always: HeaderName[] = ['X-Request-ID'];
  const sometimes: HeaderName[] = [];
  const success = status < 300;
  // 431 comes from the HTTP parser, before the key is read.
  if (def.auth !== false && status !== 401 && status !== 431)
    (status === 400 || status >= 500 ? sometimes : always).push(...RATE_LIMIT_HEADERS);
  if (status === 429) always.push('Retry-After');
  if (def.idempotencyKey && (success || status === 404 || status === 409 || status === 422))
    sometimes.push('Idempotent-Replayed');
  if (success && ETAG_ROUTES.has(entry.id)) always.push('ETag');
  return headerObjects(always, sometimes);
}

function responses(entry: EndpointEntry, codes: readonly ErrorCode[], schemas: SchemaConverter): JsonSchema {
  const { def } = entry;
  const status = def.status ?? 200;
  const body = status === 204 ? undefined : { 'application/json': { schema: schemas.convert(def.response, 'output') } };
  const out: JsonSchema = {
    [String(status)]: {
      description: status === 204 ? 'Done; no content' : 'Success',
      headers: headersOf(entry, status),
      content: body,
    },
  };
  Object.assign(
    out,
    errorResponses(codes, (code) => headersOf(entry, code)),
  );
  // GET /v1/status answers its own body, not the error envelope, when a dependency is degraded.
  if (def.auth === false)
    out['503'] = {
      description: 'A dependency is degraded: the same body, with `status` saying which',
      headers: headersOf(entry, 503),
      content: body,
    };
  out.default = { $ref: '#/components/responses/Error' };
  return out;
}

/** One response per error status, in the envelope, naming its codes and when each is answered. */
export function errorResponses(codes: readonly ErrorCode[], headers: (status: number) => JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [status, group] of byStatus(codes)) {
    out[String(status)] = {
      description: group.map((c) => `\`${c}\`: ${ERROR_WHEN[c]}`).join('; '),
      headers: headers(status),
      content: ERROR_BODY,
    };
  }
  return out;
}

/** `Errors: 400 `VALIDATION_FAILED`; 401 …`: the last paragraph of an operation's description. */
export function errorList(codes: readonly ErrorCode[]): string {
  const parts = [...byStatus(codes)].map(([status, group]) => `${status} ${group.map((c) => `\`${c}\``).join(', ')}`);
  return `Errors: ${parts.join('; ')}.`;
}

export const sentence = (text: string) => (/[.!?)]$/.test(text) ? text : `${text}.`);

/** What the route does, who may call it, and every error it answers. */
function description(entry: EndpointEntry, codes: readonly ErrorCode[], aliasOf?: string): string {
  const { def } = entry;
  const who =
    def.auth === false
      ? 'No key needed.'
      : def.scope === null
        ? 'Any valid live key.'
        : `Needs a ${def.testKeySynthetic ? '' : 'live '}key with the scope \`${def.scope}\`.`;
  const lines = [
    (aliasOf === undefined ? '' : `Accepted as the same as ${def.method} ${def.path}. `) + sentence(def.summary),
    who + (def.testKeySynthetic ? ' A test key gets a synthetic 201 (`"test": true`): nothing is stored or sent.' : ''),
    errorList(codes),
  ];
  return lines.join('\n\n');
}

/** One OpenAPI operation of a route; an alias method gets the same operation under its own operationId. */
export function operation(entry: EndpointEntry, schemas: SchemaConverter, aliasOf?: string): JsonSchema {
  const { def } = entry;
  const body = requestBody(def, schemas);
  const inputs = [body, ...(def.query ? [schemas.convert(def.query, 'input')] : [])];
  const codes = routeErrorCodes(entry, inputs);
  const op: JsonSchema = {
    operationId: aliasOf === undefined ? entry.id : `${entry.id}.${aliasOf.toLowerCase()}`,
    summary: def.summary,
    description: description(entry, codes, aliasOf),
    tags: [entry.group],
    security: def.auth === false ? [] : [{ bearer: [] }],
    parameters: parameters(def, schemas),
    requestBody: body,
    responses: responses(entry, codes, schemas),
    'x-scope': def.scope,
    'x-write': def.write ?? def.method !== 'GET',
    'x-paginated': def.paginated ?? false,
    'x-test-key-synthetic': def.testKeySynthetic ?? false,
  };
  if (op.requestBody === undefined) delete op.requestBody;
  return op;
}
