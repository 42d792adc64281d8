import type { OpenApiPaths } from '../../src/api/openapi/openapi.js';

/**
 * The document's operations and their examples, read from the document alone (the recorder and
 * test/contract/openapi-prism.test.ts send them).
 */
export type Json = Record<string, unknown>;

export interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  example?: string;
}

export interface Media {
  example?: unknown;
  examples?: Record<string, { $ref: string }>;
}

/** One operation of the document. */
export interface DocumentOperation {
  id: string;
  method: string;
  /** The path template, `/v1/tickets/{id}`. */
  path: string;
  op: Json;
}

/** Every operation of the document, in its order. */
export function documentOperations(document: OpenApiPaths): DocumentOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ id: String(op.operationId), method, path, op })),
  );
}

/** The example a media type of `document` shows: its own, or the shared one it refers to. */
export function exampleOf(document: OpenApiPaths, media: Media): unknown {
  if (media.example !== undefined) return media.example;
  const [ref] = Object.values(media.examples ?? {});
  const shared = (document.components as { examples?: Record<string, { value: unknown }> }).examples ?? {};
  return ref && shared[ref.$ref.split('/').pop()!]?.value;
}

/** A multipart body from an example: a `format: binary` field (the file) becomes a file part. */
export function formData(example: Json): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(example))
    if (name === 'file') form.append(name, new Blob([String(value)], { type: 'text/plain' }), 'hours.txt');
    else form.append(name, typeof value === 'string' ? value : JSON.stringify(value));
  return form;
}

/** The documented success status of an operation. */
export const successStatus = (op: Json) => Number(Object.keys(op.responses as Json).find((s) => /^2\d\d$/.test(s)));
