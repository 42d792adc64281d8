import type { EndpointId } from '../all-endpoints.js';
import type { JsonSchema } from './json-schema.js';

const integer = (description: string) => ({ description, required: true, schema: { type: 'integer', minimum: 0 } });

/** `components.headers`: each as it is on the answers that always carry it. */
export const HEADER_COMPONENTS = {
  'X-Request-ID': {
    description: "On every answer: the caller's X-Request-ID when it is 1-200 of `[A-Za-z0-9._:-]`, else a new `req_…`",
    required: true,
    schema: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9._:-]+$' },
  },
  'X-RateLimit-Limit': integer('Requests allowed per 60-second window for this key'),
  'X-RateLimit-Remaining': integer('Requests left in the current window'),
  'X-RateLimit-Reset': integer('Unix seconds when the window ends'),
  'Retry-After': integer('Seconds to wait before the next request is allowed'),
  'Idempotent-Replayed': {
    description: 'Present, `true`, only when the answer is the stored result of an earlier identical request',
    schema: { type: 'string', enum: ['true'] },
  },
  ETag: {
    description: 'The ticket\'s version in double quotes (`"3"`): send it back as If-Match to update only that version',
    required: true,
    schema: { type: 'string', pattern: '^"\\d+"$' },
  },
} satisfies Record<string, JsonSchema>;

export type HeaderName = keyof typeof HEADER_COMPONENTS;

/** The routes whose success carries an ETag (tickets: their `version`). */
export const ETAG_ROUTES: ReadonlySet<EndpointId> = new Set<EndpointId>(['tickets.get', 'tickets.update']);

export const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

/** Header objects by name: a ref where the header is always there, an optional copy where it may be absent. */
export function headerObjects(always: readonly HeaderName[], sometimes: readonly HeaderName[] = []): JsonSchema {
  const out: JsonSchema = {};
  for (const name of always) out[name] = { $ref: `#/components/headers/${name}` };
  for (const name of sometimes) {
    const component: JsonSchema = HEADER_COMPONENTS[name];
    out[name] = component.required ? { ...component, required: false } : { $ref: `#/components/headers/${name}` };
  }
  return out;
}
