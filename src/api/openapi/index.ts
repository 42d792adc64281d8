export { openapi, type OpenApiDocument, type OpenApiOptions } from './openapi.js';
export { openapiPath } from './operation.js';
