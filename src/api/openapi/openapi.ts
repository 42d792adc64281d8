import { allEndpoints } from '../all-endpoints.js';
import { DOCS_BASE_URL, ErrorEnvelope } from '../error-codes.js';
import { SchemaConverter, type JsonSchema } from './json-schema.js';
import { openapiPath, operation } from './operation.js';
import { webhookOperations } from './webhooks.js';

export interface OpenApiOptions {
  /** The server address the document names. @default 'https://api.example.com' */
  serverUrl?: string;
}

export type OpenApiDocument = JsonSchema & {
  openapi: '3.1.0';
  paths: Record<string, Record<string, JsonSchema>>;
  webhooks: Record<string, JsonSchema>;
};

const integerHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

/** The OpenAPI 3.1 document of the whole API, built from the contract table and the event catalog. */
export function openapi(options: OpenApiOptions = {}): OpenApiDocument {
  const schemas = new SchemaConverter();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const entry of allEndpoints()) {
    const item = (paths[openapiPath(entry.def.path)] ??= {});
    item[entry.def.method.toLowerCase()] = operation(entry, schemas);
    for (const alias of entry.def.aliases ?? []) item[alias.toLowerCase()] = operation(entry, schemas, alias);
  }
  const webhooks = webhookOperations(schemas);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Messaging Conversations REST API',
      version: '1',
      description: 'Every route of the service, derived from the convo-kit contract table. Errors: ' + DOCS_BASE_URL,
    },
    servers: [{ url: options.serverUrl ?? 'https://api.example.com' }],
    security: [{ bearer: [] }],
    paths,
    webhooks,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'A key: `svc_live_…` (live) or `svc_test_…` (test, synthetic answers on five routes only)',
        },
      },
      schemas: { ErrorEnvelope: schemas.convert(ErrorEnvelope, 'output'), ...schemas.components },
      responses: {
        Error: {
          description: 'The error envelope; `error.code` names the failure, `doc_url` explains it',
          headers: { 'X-Request-ID': { $ref: '#/components/headers/X-Request-ID' } },
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
        },
      },
      headers: {
        'X-Request-ID': { description: "The caller's valid value, or a generated `req_…`", schema: { type: 'string' } },
        'X-RateLimit-Limit': integerHeader('Requests allowed per 60-second window for this key'),
        'X-RateLimit-Remaining': integerHeader('Requests left in the current window'),
        'X-RateLimit-Reset': integerHeader('Unix seconds when the window ends'),
        'Idempotent-Replayed': {
          description: '`true` when the answer is a stored replay',
          schema: { type: 'string', enum: ['true'] },
        },
      },
    },
  };
}
