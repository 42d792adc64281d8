// `convo-kit/api`: the contract that routes are made of. Every route of the service, declared once (the client,
// the emulator and openapi() derive from it), its scopes, plans, error codes and the OpenAPI document. The
// shapes the routes carry are in `convo-kit/resources` (src/api/README.md, "The public surface").
export { endpoints, type Endpoints } from './endpoints/index.js';
export {
  allEndpoints,
  findEndpoint,
  compareRoutePrecedence,
  type EndpointId,
  type EndpointEntry,
  type EndpointGroupName,
} from './all-endpoints.js';
export { endpoint, type EndpointDef, type EndpointGroup, type HttpMethod } from './endpoint.js';
export { SCOPES, Scope } from './scopes.js';
export { PLAN_RATE_LIMITS, READ_ONLY_PLANS, RATE_LIMIT_WINDOW_SECONDS, Plan } from './plans.js';
export { ERROR_STATUS, DOCS_BASE_URL, ErrorEnvelope, type ErrorCode } from './error-codes.js';
export {
  documentedOperations,
  openapi,
  openapiPath,
  type DocumentedOperation,
  type OpenApiDocument,
  type OpenApiOptions,
} from './openapi/index.js';
