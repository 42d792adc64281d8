import { ERROR_STATUS, type ErrorCode } from '../../api/error-codes.js';
import { ERROR_ENVELOPES, ErrorResponses } from '../../api/openapi/error-responses.js';
import { SchemaConverter, type JsonSchema } from '../../api/openapi/json-schema.js';
import { DEFAULT_SERVER_URL, components, type OpenApiPaths } from '../../api/openapi/openapi.js';
import { openapiPath } from '../../api/openapi/documented-operations.js';
import { addExamples } from '../../api/openapi/examples.js';
import { errorList, sentence } from '../../api/openapi/operation.js';
import { HEADER_COMPONENTS, headerObjects } from '../../api/openapi/response-headers.js';
import { REQUEST_ID_PARAMETER, REQUEST_PARAMETERS } from '../../api/openapi/request-parameters.js';
import { namesAChannel } from '../../api/openapi/route-errors.js';
import type { EmulatorControl } from '../platform/controls-router.js';
import { EMULATOR_CONTROLS } from './index.js';
import { ImportSummary } from '../saved-state/import-state.js';
import { STATE_KEY_HEADER, STATE_PATH, StateDocument } from '../saved-state/state-document.js';
import { MIN_STATE_KEY_CHARS } from '../saved-state/state-key.js';

const TAG = {
  name: 'emulator controls',
  description:
    "The emulator's own routes, not the service's: they play the customer, the provider or time. " +
    "Every one needs the emulator's admin key.",
  'x-emulator': true,
};

/** `/templates/:id/review` -> `emulator.templates.review`. */
const operationId = (path: string) =>
  ['emulator', ...path.split('/').filter((s) => s !== '' && !s.startsWith(':'))].join('.');

function errorCodes(item: EmulatorControl, inputs: readonly unknown[]): ErrorCode[] {
  const codes = new Set<ErrorCode>(['UNAUTHENTICATED', 'INSUFFICIENT_SCOPE', 'INTERNAL_ERROR', ...(item.errors ?? [])]);
  if (item.params || item.body) codes.add('VALIDATION_FAILED');
  if (item.params) codes.add('NOT_FOUND');
  if (item.body) ['PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'].forEach((c) => codes.add(c as ErrorCode));
  if (namesAChannel(inputs)) codes.add('INVALID_PLATFORM');
  return (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((code) => codes.has(code));
}

function operation(item: EmulatorControl, schemas: SchemaConverter, errors: ErrorResponses): JsonSchema {
  const body = item.body ? schemas.convert(item.body, 'input') : undefined;
  const codes = errorCodes(item, [body]);
  const headers = () => headerObjects(['X-Request-ID']);
  const op: JsonSchema = {
    operationId: operationId(item.path),
    summary: item.summary,
    description: [sentence(item.summary), "Needs the emulator's admin key.", errorList(codes)].join('\n\n'),
    tags: [TAG.name],
    'x-emulator': true,
    parameters: [
      ...(item.params
        ? schemas
            .properties(item.params, 'input')
            .map((p) => ({ name: p.name, in: 'path', required: true, schema: p.schema }))
        : []),
      REQUEST_ID_PARAMETER,
    ],
    responses: {
      [String(item.status ?? 200)]: {
        description: 'Done',
        headers: headers(),
        content: { 'application/json': { schema: schemas.convert(item.response, 'output') } },
      },
      ...errors.refs(codes, headers, () => ''),
      default: { $ref: '#/components/responses/Error' },
    },
  };
  if (body) {
    const required = Array.isArray(body.required) && body.required.length > 0;
    op.requestBody = { required, content: { 'application/json': { schema: body } } };
  }
  return op;
}

const STATE_TEXT =
  'docs/emulator.md, "Saving and loading state". Secrets are sealed with the state key in `X-Emulator-State-Key` ' +
  "(16 characters or more), or left out without one. A request from another site's page is 403 `FORBIDDEN`.";

/** `GET` and `PUT /_emulator/state`: routes of their own (not POST controls), documented beside them. */
function stateOperations(schemas: SchemaConverter, errors: ErrorResponses): Record<string, JsonSchema> {
  const document = schemas.convert(StateDocument, 'output');
  const headers = () => headerObjects(['X-Request-ID']);
  const stateKey = {
    name: STATE_KEY_HEADER,
    in: 'header',
    required: false,
    description: 'The passphrase that seals (GET) or opens (PUT) the secrets',
    schema: { type: 'string', minLength: MIN_STATE_KEY_CHARS },
  };
  const op = (id: string, summary: string, codes: ErrorCode[], answer: JsonSchema): JsonSchema => ({
    operationId: `emulator.state.${id}`,
    summary,
    description: [sentence(summary), "Needs the emulator's admin key.", STATE_TEXT, errorList(codes)].join('\n\n'),
    tags: [TAG.name],
    'x-emulator': true,
    parameters: [stateKey, REQUEST_ID_PARAMETER],
    responses: {
      '200': { description: 'Done', headers: headers(), content: { 'application/json': { schema: answer } } },
      ...errors.refs(codes, headers, () => ''),
      default: { $ref: '#/components/responses/Error' },
    },
  });
  const base: ErrorCode[] = ['VALIDATION_FAILED', 'UNAUTHENTICATED', 'INSUFFICIENT_SCOPE'];
  return {
    get: op(
      'export',
      'The whole workspace as one versioned state document',
      [...base, 'INVALID_STATE', 'INTERNAL_ERROR'],
      document,
    ),
    put: {
      ...op(
        'import',
        'Replace the whole workspace with a state document; a refused one changes nothing',
        [...base, 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'INTERNAL_ERROR'],
        schemas.convert(ImportSummary, 'output'),
      ),
      requestBody: { required: true, content: { 'application/json': { schema: document } } },
    },
  };
}

/**
 * The OpenAPI 3.1 document of the `/_emulator` controls, apart from the service's document: a client
 * generated from the service's must not offer routes the service does not have. Built from the same
 * control declarations the emulator mounts, so their bodies are the schemas the controls validate with.
 */
export function controlsOpenapi(
  options: { serverUrl?: string } = {},
  controls: readonly EmulatorControl[] = EMULATOR_CONTROLS,
): OpenApiPaths {
  const schemas = new SchemaConverter(ERROR_ENVELOPES);
  const errors = new ErrorResponses(schemas);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const item of controls)
    paths[`/_emulator${openapiPath(item.path)}`] = { post: operation(item, schemas, errors) };
  // Converted before components() names every schema; given its path after the examples (see below).
  const state = stateOperations(schemas, errors);
  const document: OpenApiPaths = {
    openapi: '3.1.0',
    info: {
      title: 'convo-kit emulator controls',
      version: '1',
      description:
        'The `/_emulator` routes of `convo-kit emulator`, which the service does not have: a test or a demo uses ' +
        'them to play the customer (inbound messages), the provider (template reviews, handoffs) or time (the clock).',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: options.serverUrl ?? DEFAULT_SERVER_URL, description: 'A running convo-kit emulator' }],
    security: [{ admin: [] }],
    tags: [TAG],
    paths,
    components: components(
      schemas,
      errors,
      { admin: "The emulator's admin key (`--admin-key`, or the one it prints at start-up)" },
      { 'X-Request-ID': HEADER_COMPONENTS['X-Request-ID'] },
      REQUEST_PARAMETERS,
    ),
  };
  addExamples(document);
  // No example of a whole workspace: GET /_emulator/state answers a real one.
  paths[STATE_PATH] = state;
  return document;
}
