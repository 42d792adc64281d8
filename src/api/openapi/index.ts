export { openapi, type OpenApiDocument, type OpenApiOptions } from './openapi.js';
export { documentedOperations, openapiPath, type DocumentedOperation } from './documented-operations.js';
