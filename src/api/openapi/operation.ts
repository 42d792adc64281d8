import type { z } from 'zod';
import { takesNoBody, type EndpointDef } from '../endpoint.js';
import type { EndpointEntry } from '../all-endpoints.js';
import { EmptyBody, IdempotencyKey, syntheticOf } from '../schemas/common.js';
import { PAGE_DEFAULT_LIMIT } from '../schemas/page.js';
import type { ErrorCode } from '../error-codes.js';
import type { DocumentedOperation } from './documented-operations.js';
import { byStatus, type ErrorResponses } from './error-responses.js';
import type { JsonSchema, SchemaConverter } from './json-schema.js';
import { ETAG_ROUTES, RATE_LIMIT_HEADERS, headerObjects, type HeaderName } from './response-headers.js';
import { REQUEST_ID_PARAMETER } from './request-parameters.js';
import { routeErrorCodes } from './route-errors.js';

/** `if-match` -> `If-Match`. */
const headerName = (key: string) =>
  key.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());

function parameters(def: EndpointDef, schemas: SchemaConverter): JsonSchema[] {
  const out: JsonSchema[] = [];
  if (def.params)
    for (const p of schemas.properties(def.params, 'input'))
      out.push({ name: p.name, in: 'path', required: true, schema: p.schema });
  if (def.query)
    for (const p of schemas.properties(def.query, 'input')) {
      // The server applies the default, so the schema (what the caller sends) cannot carry it: it is said here.
      const schema = def.paginated && p.name === 'limit' ? { ...p.schema, default: PAGE_DEFAULT_LIMIT } : p.schema;
      out.push({ name: p.name, in: 'query', required: p.required, schema });
    }
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
  out.push(REQUEST_ID_PARAMETER);
  return out;
}

function requestBody(def: EndpointDef, schemas: SchemaConverter): JsonSchema | undefined {
  if (takesNoBody(def))
    return {
      required: false,
      description: 'Takes no fields: send no body, an empty one or `{}`',
      content: { 'application/json': { schema: schemas.convert(EmptyBody, 'input') } },
    };
  if (!def.body) return undefined;
  const mediaType = def.multipart ? 'multipart/form-data' : 'application/json';
  return { required: true, content: { [mediaType]: { schema: schemas.convert(def.body, 'input') } } };
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

/** A success body: a test key's synthetic answer is the resource's component plus `test`. */
function responseSchema(response: z.ZodType, schemas: SchemaConverter): JsonSchema {
  const resource = syntheticOf(response);
  if (!resource) return schemas.convert(response, 'output');
  const marker = {
    type: 'object',
    properties: { test: { type: 'boolean', const: true, description: 'Present on a test key’s synthetic answer' } },
  };
  return { allOf: [schemas.convert(resource, 'output'), marker] };
}

/** Which of a status's shared error responses fits the route: its headers differ without a key or with replays. */
function errorVariant(entry: EndpointEntry, status: number): string {
  if (entry.def.auth === false) return 'NoKey';
  return entry.def.idempotencyKey && (status === 404 || status === 409 || status === 422) ? 'Replayable' : '';
}

function responses(
  entry: EndpointEntry,
  codes: readonly ErrorCode[],
  schemas: SchemaConverter,
  errors: ErrorResponses,
): JsonSchema {
  const { def } = entry;
  const status = def.status ?? 200;
  const body = status === 204 ? undefined : { 'application/json': { schema: responseSchema(def.response, schemas) } };
  const out: JsonSchema = {
    [String(status)]: {
      description: status === 204 ? 'Done; no content' : 'Success',
      headers: headersOf(entry, status),
      content: body,
    },
  };
  Object.assign(
    out,
    errors.refs(
      codes,
      (code) => headersOf(entry, code),
      (code) => errorVariant(entry, code),
    ),
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
export function operation(
  { entry, operationId, aliasOf }: DocumentedOperation,
  schemas: SchemaConverter,
  errors: ErrorResponses,
): JsonSchema {
  const { def } = entry;
  const body = requestBody(def, schemas);
  const inputs = [body, ...(def.query ? [schemas.convert(def.query, 'input')] : [])];
  const codes = routeErrorCodes(entry, inputs);
  const op: JsonSchema = {
    operationId,
    summary: def.summary,
    description: description(entry, codes, aliasOf),
    tags: [entry.group],
    // OpenAPI 3.1 lets a bearer requirement list the roles it needs: here, the key's scope.
    security: def.auth === false ? [] : [{ bearer: def.scope === null ? [] : [def.scope] }],
    parameters: parameters(def, schemas),
    requestBody: body,
    responses: responses(entry, codes, schemas, errors),
    'x-write': def.write ?? def.method !== 'GET',
    'x-paginated': def.paginated ?? false,
    'x-test-key-synthetic': def.testKeySynthetic ?? false,
  };
  if (op.requestBody === undefined) delete op.requestBody;
  return op;
}
