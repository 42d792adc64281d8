// convo-kit/client: the typed client derived from the contract table. Loads zod and the table only
// (no express, better-sqlite3 or pino), so a client-only user never pays for the server parts.
export { createClient, type Client } from './create-client.js';
export { createApiClient } from './create-api-client.js';
export { type ClientOptions, type RequestOptions } from './client-options.js';
export { type ClientLogger } from './client-logger.js';
export { ApiPromise, type WithResponse } from './api-promise.js';
export { PagePromise } from './page-promise.js';
export type { Page } from '../api/schemas/page.js';
export { type ResponseMeta } from './response-meta.js';
export {
  type ApiClient,
  type ApiTable,
  type EndpointInput,
  type EndpointOutput,
  type EndpointItem,
  type EndpointMethod,
} from './client-types.js';
export {
  ApiError,
  AuthenticationError,
  PermissionError,
  NotFoundError,
  ConflictError,
  ValidationFailedError,
  RateLimitError,
  SendFailedError,
  ServerError,
  isApiError,
  type ApiErrorCode,
} from './api-error.js';
export { ConvoKitError, InvalidOptionError } from '../errors.js';
export {
  InvalidInputError,
  ResponseValidationError,
  ConnectionError,
  TimeoutError,
  type FieldIssue,
} from './client-errors.js';
