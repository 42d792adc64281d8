import { z } from 'zod';

/** Every error code the API answers with, and its HTTP status (docs/errors.md). */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  IDEMPOTENCY_KEY_REQUIRED: 400,
  UNAUTHENTICATED: 401,
  TEST_KEY_NOT_ALLOWED: 403,
  INSUFFICIENT_SCOPE: 403,
  PLAN_READ_ONLY: 403,
  NOT_FOUND: 404,
  IDEMPOTENCY_KEY_REUSED: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  ACCOUNT_MISMATCH: 409,
  ACCOUNT_REQUIRED: 409,
  AMBIGUOUS_INTEGRATION: 409,
  VERSION_CONFLICT: 409,
  BODY_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  REQUEST_HEADERS_TOO_LARGE: 431,
  SEND_FAILED: 422,
  INVALID_PLATFORM: 422,
  OUTSIDE_SERVICE_WINDOW: 422,
  CONTACT_OPTED_OUT: 422,
  TEMPLATE_NOT_APPROVED: 422,
  INVALID_STATE: 422,
  PROMPT_INJECTION_DETECTED: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The docs base address; `doc_url` is this + `#` + code. */
export const DOCS_BASE_URL = 'https://docs.convo-kit.dev/errors';

export const ErrorEnvelope = z.object({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    doc_url: z.string(),
    request_id: z.string(),
    details: z.array(z.record(z.string(), z.unknown())).optional(),
  }),
});
export type ErrorEnvelope = z.output<typeof ErrorEnvelope>;

/** The HTTP statuses of the codes, each once, in order. */
export const ERROR_STATUSES = [...new Set(Object.values(ERROR_STATUS))].sort((a, b) => a - b);
export type ErrorStatus = (typeof ERROR_STATUSES)[number];

/** The codes answered with this status, in table order. */
export const codesOf = (status: number): ErrorCode[] =>
  (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((code) => ERROR_STATUS[code] === status);

/** A refusal that names a place of the request (`in` says which part, where the service knows) and why. */
export const FieldIssue = z.looseObject({
  path: z.string(),
  in: z.enum(['params', 'query', 'headers', 'body']).optional(),
  message: z.string().optional(),
});
/** The scope a key lacks. */
export const ScopeIssue = z.looseObject({ required_scope: z.string() });
/** The provider's own code for a refused send. */
export const ProviderIssue = z.looseObject({ provider_error_code: z.string() });
/** One connected account the caller may name as `integration_id`. */
export const AccountChoice = z.looseObject({ integration_id: z.string() });
/** A template a send or a journey step names, and its status (null when there is none). */
export const TemplateIssue = z.looseObject({ template_id: z.string(), status: z.string().nullable() });
/** The version a ticket is at, against the If-Match that named another. */
export const VersionIssue = z.looseObject({ current_version: z.number().int(), if_match: z.string() });
/** When the 24-hour window closed. */
export const WindowIssue = z.looseObject({ service_window_expires_at: z.string().nullable() });
/** The fields of a detail that depend on the case (a state and what it allows, a quota and its use). */
export const ErrorDetail = z.record(z.string(), z.unknown());

/**
 * The shape of each item of `details` by code (docs/errors.md). A journey step answers a template's
 * refusal with the step's `path` and the template, which is why some codes take either shape.
 */
export const ERROR_DETAILS: Readonly<Record<ErrorCode, z.ZodType>> = {
  VALIDATION_FAILED: FieldIssue,
  IDEMPOTENCY_KEY_REQUIRED: FieldIssue,
  UNAUTHENTICATED: ErrorDetail,
  TEST_KEY_NOT_ALLOWED: ErrorDetail,
  INSUFFICIENT_SCOPE: ScopeIssue,
  PLAN_READ_ONLY: ErrorDetail,
  NOT_FOUND: FieldIssue,
  IDEMPOTENCY_KEY_REUSED: ErrorDetail,
  IDEMPOTENCY_KEY_IN_USE: ErrorDetail,
  ACCOUNT_MISMATCH: z.union([AccountChoice, TemplateIssue]),
  ACCOUNT_REQUIRED: AccountChoice,
  AMBIGUOUS_INTEGRATION: z.union([AccountChoice, TemplateIssue]),
  VERSION_CONFLICT: VersionIssue,
  PAYLOAD_TOO_LARGE: FieldIssue,
  BODY_TIMEOUT: ErrorDetail,
  UNSUPPORTED_MEDIA_TYPE: FieldIssue,
  REQUEST_HEADERS_TOO_LARGE: FieldIssue,
  SEND_FAILED: ProviderIssue,
  INVALID_PLATFORM: FieldIssue,
  OUTSIDE_SERVICE_WINDOW: WindowIssue,
  CONTACT_OPTED_OUT: ErrorDetail,
  TEMPLATE_NOT_APPROVED: TemplateIssue,
  INVALID_STATE: ErrorDetail,
  PROMPT_INJECTION_DETECTED: FieldIssue,
  RATE_LIMITED: ErrorDetail,
  INTERNAL_ERROR: ErrorDetail,
  SERVICE_UNAVAILABLE: ErrorDetail,
};

/**
 * The envelope of one status as a schema: `code` one of that status's codes, `doc_url` a URI, and
 * `details` in the shape its code gives them (a union by `code` where the codes' details differ).
 */
export function errorEnvelopeOf(status: number) {
  const byShape = new Map<z.ZodType, ErrorCode[]>();
  for (const code of codesOf(status))
    byShape.set(ERROR_DETAILS[code], [...(byShape.get(ERROR_DETAILS[code]) ?? []), code]);
  const members = [...byShape].map(([detail, codes]) =>
    z.looseObject({
      code: codes.length === 1 ? z.literal(codes[0]!) : z.enum(codes as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      doc_url: z.url(),
      request_id: z.string(),
      details: z.array(detail).optional(),
    }),
  );
  return z.object({ error: members.length === 1 ? members[0]! : z.union(members) });
}
