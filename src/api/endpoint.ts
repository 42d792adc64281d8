import { z } from 'zod';
import type { Scope } from './scopes.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One route of the service, declared once. The client's method, the emulator's handler and the OpenAPI
 * operation are all derived from it; its id (`group.verb`) is the method name, handler key and operationId.
 */
export interface EndpointDef {
  method: HttpMethod;
  /** Express-style, relative to the base address: `/v1/tickets/:id`. */
  path: string;
  summary: string;
  /** The scope the key needs; `null` for routes any valid live key reaches (`/v1/developer/*`, `/v1/usage`). */
  scope: Scope | null;
  /** @default true. Only GET /v1/status is reachable without a key. */
  auth?: boolean;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodObject;
  response: z.ZodType;
  /** The success status. @default 200 (201 for creates, 204 for deletes, as declared) */
  status?: 200 | 201 | 202 | 204;
  /** The response is a `page()` and the route takes `limit`/`cursor`. */
  paginated?: boolean;
  /** `required` on the two free-text send routes (spec, Send behavior 6). */
  idempotencyKey?: 'required';
  /** A test key gets a synthetic 201 here instead of 403 (docs/keys-and-limits.md: exactly five routes). */
  testKeySynthetic?: boolean;
  /** Refused on read-only plans. @default method !== 'GET' */
  write?: boolean;
  /** Multipart form upload instead of JSON. */
  multipart?: boolean;
  /** Request headers the route reads besides auth and Idempotency-Key (e.g. `If-Match`), keyed by lower-case header name. */
  headers?: z.ZodObject;
  /** Other methods the service accepts on the same path as this very route (docs/resources.md: PATCH for the journey steps and status). */
  aliases?: readonly HttpMethod[];
}

/** The query of a route that declares none: it takes none (the emulator's `/_emulator` controls too). */
export const NO_QUERY = z.strictObject({});

/**
 * Declares an endpoint, keeping its literal types so the client and emulator can be typed from it. Its query
 * is made strict here, once for the whole table: a parameter the route does not declare is 400
 * VALIDATION_FAILED naming it (docs/errors.md), since an ignored, misspelt filter looks as if it had worked.
 * A route declared without a query gets one that takes nothing (its type still says none).
 */
export function endpoint<const D extends EndpointDef>(def: D): D {
  return { ...def, query: def.query?.strict() ?? NO_QUERY };
}

export type EndpointGroup = Record<string, EndpointDef>;

/**
 * A write route declared without a body takes none: it accepts an absent body, an empty one or `{}`,
 * and refuses a body with fields by name (docs/errors.md), as the client refuses them.
 */
export function takesNoBody(def: Pick<EndpointDef, 'method' | 'body' | 'multipart'>): boolean {
  return def.body === undefined && !def.multipart && def.method !== 'GET' && def.method !== 'DELETE';
}
