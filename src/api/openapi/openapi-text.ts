import type { OpenApiPaths } from './openapi.js';

/** A document as `convo-kit openapi` prints it and the emulator serves it: indented, one final newline. */
export function openapiText(document: OpenApiPaths): string {
  return JSON.stringify(document, null, 2) + '\n';
}
