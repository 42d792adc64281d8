import { ZodError, type z } from 'zod';
import type { EndpointDef } from '../../api/endpoint.js';
import { isInvalidPlatformIssue } from '../../api/schemas/common.js';
import { unknownKeys } from '../../api/unknown-keys.js';
import { ApiFailure } from '../api-failure.js';

export type RequestPart = 'params' | 'query' | 'body' | 'headers';

export interface RawRequest {
  params: unknown;
  query: unknown;
  body: unknown;
  headers: unknown;
}

export type ValidRequest = Record<RequestPart, unknown>;

/** At most this many issues are reported: a hostile body cannot make the answer huge. */
const MAX_DETAILS = 20;

/** A refinement that throws on odd input (e.g. `new URL('hooks')`) is still the caller's bad input, not our 500. */
function safeParse(schema: z.ZodType, value: unknown): ReturnType<z.ZodType['safeParse']> {
  try {
    return schema.safeParse(value);
  } catch (error) {
    const message = error instanceof Error ? error.message.slice(0, 200) : 'invalid value';
    return { success: false, error: new ZodError([{ code: 'custom', path: [], message, input: value }]) };
  }
}

/**
 * Checks every part of a request against the endpoint's zod schemas. A wrong channel is 422
 * INVALID_PLATFORM (docs/resources.md); anything else 400 VALIDATION_FAILED with details [{path, in, message}],
 * one per unknown key (a query parameter or body field the route does not declare).
 * A part without a schema passes through as an empty object.
 */
export function validateRequest(def: Partial<Pick<EndpointDef, RequestPart>>, raw: RawRequest): ValidRequest {
  const issues: { part: RequestPart; issue: z.core.$ZodIssue }[] = [];
  const valid: ValidRequest = { params: {}, query: {}, body: {}, headers: {} };
  for (const part of ['params', 'query', 'headers', 'body'] as const) {
    const schema = def[part];
    if (!schema) continue;
    // A route whose body fields are all optional may be called without a body.
    const result = safeParse(schema, part === 'body' ? (raw.body ?? {}) : raw[part]);
    if (result.success) valid[part] = result.data;
    else issues.push(...result.error.issues.map((issue) => ({ part, issue })));
  }
  if (issues.length === 0) return valid;
  const details = issues
    .flatMap(({ part, issue }) =>
      issue.code === 'unrecognized_keys'
        ? unknownKeys(def[part]!, issue, part === 'query' ? 'query parameter' : 'field').map((key) => ({
            part,
            ...key,
          }))
        : [{ part, path: issue.path, message: issue.message }],
    )
    .slice(0, MAX_DETAILS)
    .map(({ part, path, message }) => ({ path: path.join('.'), in: part, message }));
  const platform = issues.find(({ issue }) => isInvalidPlatformIssue(issue));
  if (platform) {
    throw new ApiFailure(
      'INVALID_PLATFORM',
      `${platform.issue.path.join('.') || platform.part} names an unsupported channel: expected phone, photo_social or social_page`,
      {
        details,
      },
    );
  }
  // An uploaded file over its size bound, or of a type the route does not take (docs/ai-and-knowledge.md).
  const tooBig = issues.find(({ issue }) => issue.code === 'too_big' && issue.origin === 'file');
  if (tooBig) {
    throw new ApiFailure('PAYLOAD_TOO_LARGE', `${tooBig.issue.path.join('.')}: ${tooBig.issue.message}`, { details });
  }
  const mediaType = issues.find(
    ({ issue }) => issue.code === 'custom' && issue.params?.code === 'UNSUPPORTED_MEDIA_TYPE',
  );
  if (mediaType) {
    throw new ApiFailure('UNSUPPORTED_MEDIA_TYPE', `${mediaType.issue.path.join('.')}: ${mediaType.issue.message}`, {
      details,
    });
  }
  const first = details[0]!;
  throw new ApiFailure(
    'VALIDATION_FAILED',
    `Invalid ${first.in}${first.path ? ` field ${first.path}` : ''}: ${first.message}`,
    { details },
  );
}
