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
