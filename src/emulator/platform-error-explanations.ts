import type { ErrorCode } from '../api/index.js';
import type { ErrorExplanation } from '../resources/index.js';

export type Explanation = Pick<ErrorExplanation, 'what_happened' | 'fault' | 'next_step' | 'retryable'>;

/**
 * The service's own error codes (docs/errors.md) in plain language, one for each code of ERROR_STATUS:
 * a code the emulator can answer with is one GET /v1/developer/troubleshooting/errors/:code explains.
 */
export const PLATFORM_ERROR_EXPLANATIONS: Readonly<Record<ErrorCode, Explanation>> = {
  OUTSIDE_SERVICE_WINDOW: {
    what_happened: 'Free text on the phone channel was refused because the 24-hour customer-service window is closed.',
    fault: 'platform',
    next_step: 'Send an approved template (POST /v1/templates/:id/send); the window reopens when the customer writes.',
    retryable: false,
  },
  CONTACT_OPTED_OUT: {
    what_happened:
      'The contact opted out (for example by replying STOP); the send was stopped before sending and not charged.',
    fault: 'platform',
    next_step: 'Do not message this contact until they opt in again (for example by replying START).',
    retryable: false,
  },
  SEND_FAILED: {
    what_happened: 'The provider rejected the send; details name the provider error code.',
    fault: 'provider',
    next_step: 'Look up details[0].provider_error_code on this route for the cause and the fix.',
    retryable: false,
  },
  ACCOUNT_REQUIRED: {
    what_happened: 'The contact chats on several connected accounts of that channel, so the sender is ambiguous.',
    fault: 'platform',
    next_step: 'Pass integration_id (one of the ids in details) or send on the conversation by id.',
    retryable: false,
  },
  ACCOUNT_MISMATCH: {
    what_happened: "integration_id names another account than the conversation's own.",
    fault: 'platform',
    next_step: "Omit integration_id or use the conversation's integration_id.",
    retryable: false,
  },
  TEMPLATE_NOT_APPROVED: {
    what_happened:
      'The template is not approved (pending review, rejected, paused after throttling, or deleted); the send was stopped before sending and not charged.',
    fault: 'platform',
    next_step:
      'Check GET /v1/templates/:id; submit it for review or map an approved template (PUT /v1/journeys/:id/steps), then trigger again.',
    retryable: false,
  },
  AMBIGUOUS_INTEGRATION: {
    what_happened: 'The template is not pinned to a number and the workspace has several active phone numbers.',
    fault: 'platform',
    next_step: 'Pass integration_id, or pin the template to one number (pinned_integration_id).',
    retryable: false,
  },
  VALIDATION_FAILED: {
    what_happened: 'The request, or the variables a template needs, did not pass validation; details name the field.',
    fault: 'platform',
    next_step: 'Correct the field named in details (for a journey, the metadata.<n> its templates use) and send again.',
    retryable: false,
  },
  INVALID_STATE: {
    what_happened:
      'The resource is in a state that does not allow this (for example a paused journey or a sent campaign).',
    fault: 'platform',
    next_step: "Read the resource's status, move it to a state that allows the action, then retry.",
    retryable: false,
  },
  RATE_LIMITED: {
    what_happened: 'The key made more requests this minute than its plan allows.',
    fault: 'platform',
    next_step: 'Wait Retry-After seconds, then continue; GET /v1/developer/limits shows the limit.',
    retryable: true,
  },
  IDEMPOTENCY_KEY_REQUIRED: {
    what_happened: 'A free-text send came without an Idempotency-Key header of 1 to 200 characters.',
    fault: 'platform',
    next_step: 'Send a unique Idempotency-Key (a UUID) with each new send, and the same one when retrying it.',
    retryable: false,
  },
  UNAUTHENTICATED: {
    what_happened: 'The API key is missing, malformed, unknown, revoked, or rotated more than 24 hours ago.',
    fault: 'platform',
    next_step: 'Send Authorization: Bearer <key> with a current key; create or rotate one with POST /v1/keys.',
    retryable: false,
  },
  TEST_KEY_NOT_ALLOWED: {
    what_happened: 'A test key reaches only the five synthetic send routes; this route needs a live key.',
    fault: 'platform',
    next_step: 'Use a live key (svc_live_…) here, or call one of the synthetic send routes with the test key.',
    retryable: false,
  },
  INSUFFICIENT_SCOPE: {
    what_happened: 'The key lacks the scope this route needs; details name it.',
    fault: 'platform',
    next_step: 'Create a key with the scope in details (POST /v1/keys) and use it for this route.',
    retryable: false,
  },
  PLAN_READ_ONLY: {
    what_happened: 'The workspace is on a read-only plan (free or creator), so write routes are refused.',
    fault: 'platform',
    next_step: 'Upgrade to a paid plan; GET /v1/developer/limits shows the plan and whether it is read-only.',
    retryable: false,
  },
  NOT_FOUND: {
    what_happened: 'No resource has that id in this workspace, or the route does not exist.',
    fault: 'platform',
    next_step: 'Check the id (list the resource to find it) and the method and path.',
    retryable: false,
  },
  IDEMPOTENCY_KEY_REUSED: {
    what_happened: 'This Idempotency-Key was already used with a different body; the first result is kept.',
    fault: 'platform',
    next_step: 'Use a new Idempotency-Key for a new request; reuse a key only to retry the very same body.',
    retryable: false,
  },
  IDEMPOTENCY_KEY_IN_USE: {
    what_happened: 'A request with this Idempotency-Key is still being processed.',
    fault: 'platform',
    next_step: 'Retry the same request with the same key once the first one has answered.',
    retryable: true,
  },
  VERSION_CONFLICT: {
    what_happened: 'The ticket changed since it was read: If-Match names an older version.',
    fault: 'platform',
    next_step: 'GET the ticket again, reapply the change to it, and PATCH with its new ETag.',
    retryable: true,
  },
  BODY_TIMEOUT: {
    what_happened:
      'An upload stopped arriving: its body was not all in within 10 seconds of its headers. Nothing was stored, and the connection was closed.',
    fault: 'platform',
    next_step: 'Send the file again in one request, without pausing; a 10 MiB file takes well under a second locally.',
    retryable: true,
  },
  PAYLOAD_TOO_LARGE: {
    what_happened: 'The JSON body is over 1 MiB, or an uploaded file is over its limit.',
    fault: 'platform',
    next_step: 'Send a smaller body or file; the message names the bound that was passed.',
    retryable: false,
  },
  UNSUPPORTED_MEDIA_TYPE: {
    what_happened: 'The body is not application/json in UTF-8, or the uploaded file is of a type not accepted.',
    fault: 'platform',
    next_step: 'Send Content-Type: application/json, or upload one of the accepted file types.',
    retryable: false,
  },
  REQUEST_HEADERS_TOO_LARGE: {
    what_happened: 'The request line and headers together are over 16 KiB (a long query string counts).',
    fault: 'platform',
    next_step: 'Shorten the query string or the headers.',
    retryable: false,
  },
  INVALID_PLATFORM: {
    what_happened:
      'A channel or platform was named that is not phone, photo_social or social_page, or not available there.',
    fault: 'platform',
    next_step: 'Use one of the three channel kinds, on a route or account that supports it.',
    retryable: false,
  },
  PROMPT_INJECTION_DETECTED: {
    what_happened:
      'The knowledge content contains a phrase that tries to override the AI instructions; nothing was stored.',
    fault: 'platform',
    next_step: 'Remove the phrase the message names from the content and add it again.',
    retryable: false,
  },
  INTERNAL_ERROR: {
    what_happened: 'The service failed unexpectedly while handling the request.',
    fault: 'platform',
    next_step:
      'Retry with backoff (with the same Idempotency-Key for a send); quote X-Request-ID to support if it persists.',
    retryable: true,
  },
  SERVICE_UNAVAILABLE: {
    what_happened: 'The service is briefly unable to take the request (it is busy or a dependency is degraded).',
    fault: 'platform',
    next_step: 'Wait Retry-After seconds, then retry; GET /v1/status shows the dependencies.',
    retryable: true,
  },
};
