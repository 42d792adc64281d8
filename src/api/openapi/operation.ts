import type { EndpointDef } from '../endpoint.js';
import type { EndpointEntry } from '../all-endpoints.js';
import { IdempotencyKey } from '../schemas/common.js';
import type { JsonSchema, SchemaConverter } from './json-schema.js';

const ERROR_RESPONSE = { $ref: '#/components/responses/Error' };

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

function responses(def: EndpointDef, schemas: SchemaConverter): JsonSchema {
  const status = def.status ?? 200;
  const auth = def.auth !== false;
  const headers: JsonSchema = { 'X-Request-ID': { $ref: '#/components/headers/X-Request-ID' } };
  if (auth) {
    for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'])
      headers[name] = { $ref: `#/components/headers/${name}` };
  }
  if (def.idempotencyKey) headers['Idempotent-Replayed'] = { $ref: '#/components/headers/Idempotent-Replayed' };
  const success: JsonSchema =
    status === 204
      ? { description: 'No content', headers }
      : {
          description: 'Success',
          headers,
          content: { 'application/json': { schema: schemas.convert(def.response, 'output') } },
        };
  const out: JsonSchema = { [String(status)]: success, '400': ERROR_RESPONSE };
  if (auth) Object.assign(out, { '401': ERROR_RESPONSE, '403': ERROR_RESPONSE, '429': ERROR_RESPONSE });
  if (def.params) out['404'] = ERROR_RESPONSE;
  // GET /v1/status answers its own body, not the error envelope, when a dependency is degraded.
  if (!auth) out['503'] = { description: 'Degraded', content: success.content };
  out.default = ERROR_RESPONSE;
  return out;
}

/** One OpenAPI operation of a route; an alias method gets the same operation under its own operationId. */
export function operation(entry: EndpointEntry, schemas: SchemaConverter, aliasOf?: string): JsonSchema {
  const { def } = entry;
  const op: JsonSchema = {
    operationId: aliasOf === undefined ? entry.id : `${entry.id}.${aliasOf.toLowerCase()}`,
    summary: def.summary,
    tags: [entry.group],
    security: def.auth === false ? [] : [{ bearer: [] }],
    parameters: parameters(def, schemas),
    requestBody: requestBody(def, schemas),
    responses: responses(def, schemas),
    'x-scope': def.scope,
    'x-write': def.write ?? def.method !== 'GET',
    'x-paginated': def.paginated ?? false,
    'x-test-key-synthetic': def.testKeySynthetic ?? false,
  };
  if (aliasOf !== undefined) op.description = `Accepted as the same as ${def.method} ${def.path}.`;
  if (op.requestBody === undefined) delete op.requestBody;
  return op;
}
