import type { EndpointEntry, EndpointId } from '../all-endpoints.js';
import { takesNoBody } from '../endpoint.js';
import { ERROR_STATUS, type ErrorCode } from '../error-codes.js';
import { Channel } from '../schemas/common.js';

/** When each code is answered, in a few words: the text of the error responses and operation descriptions. */
export const ERROR_WHEN: Readonly<Record<ErrorCode, string>> = {
  VALIDATION_FAILED: 'the path, query, headers or body fail their schema; `details` names each field',
  IDEMPOTENCY_KEY_REQUIRED: 'the Idempotency-Key header is missing or not 1-200 characters',
  UNAUTHENTICATED: 'the key is missing, malformed, unknown or revoked',
  TEST_KEY_NOT_ALLOWED: 'a test key, which reaches only the five synthetic send routes',
  INSUFFICIENT_SCOPE: 'the key lacks the scope; `details` names it',
  PLAN_READ_ONLY: 'a write on a read-only plan (free, creator)',
  NOT_FOUND: 'an id in the path or body names nothing',
  IDEMPOTENCY_KEY_REUSED: 'the same Idempotency-Key with another body',
  IDEMPOTENCY_KEY_IN_USE: 'the same Idempotency-Key while its first request is still running',
  ACCOUNT_MISMATCH: "`integration_id` is not the conversation's connected account",
  ACCOUNT_REQUIRED: "the contact's chat on that channel is ambiguous between accounts: name `integration_id`",
  AMBIGUOUS_INTEGRATION: 'the sender cannot be resolved and several active numbers exist',
  VERSION_CONFLICT: 'If-Match names a version that is no longer current',
  BODY_TIMEOUT: 'an upload was not all in within 10 s of its headers; the connection closes',
  PAYLOAD_TOO_LARGE: 'the body (1 MiB of JSON) or an upload is over its limit',
  UNSUPPORTED_MEDIA_TYPE:
    'the body is not of the route’s media type (JSON in UTF-8), or an upload of a type not allowed',
  REQUEST_HEADERS_TOO_LARGE: 'the request line and headers are over 16 KiB (a long query string counts)',
  SEND_FAILED: 'the provider rejected the send; `details` carries `provider_error_code`',
  INVALID_PLATFORM: 'a channel that is not phone, photo_social or social_page',
  OUTSIDE_SERVICE_WINDOW: 'free text on the phone channel while the 24-hour window is closed',
  CONTACT_OPTED_OUT: 'the contact opted out: stopped before sending, not charged',
  TEMPLATE_NOT_APPROVED: 'the template is not `approved`',
  INVALID_STATE: 'the resource’s state or a workspace bound does not allow it',
  PROMPT_INJECTION_DETECTED: 'the knowledge content failed the prompt-injection scan',
  RATE_LIMITED: "over the key's per-minute limit; wait Retry-After seconds",
  INTERNAL_ERROR: 'an unexpected failure; quote the request id',
  SERVICE_UNAVAILABLE: 'a dependency is degraded, or too busy to take the request now; retry after Retry-After seconds',
};

const SEND_REFUSALS: readonly ErrorCode[] = ['CONTACT_OPTED_OUT', 'SEND_FAILED'];
// A trigger answers before or without sending: a step's refusal is its outcome at `status_url`, not the answer's.
const JOURNEY_START: readonly ErrorCode[] = ['NOT_FOUND', 'INVALID_STATE'];
// A campaign's number: not a phone number, or (when it goes or is scheduled) not resolvable or disconnected.
const CAMPAIGN_SENDER: readonly ErrorCode[] = ['ACCOUNT_MISMATCH', 'AMBIGUOUS_INTEGRATION', 'INVALID_STATE'];
// Each step's template: unknown, not approved, or with no number to send it from (a disconnected one is INVALID_STATE).
const JOURNEY_STEPS: readonly ErrorCode[] = [
  'NOT_FOUND',
  'TEMPLATE_NOT_APPROVED',
  'AMBIGUOUS_INTEGRATION',
  'ACCOUNT_MISMATCH',
  'INVALID_STATE',
];

/**
 * The codes a route answers beyond what its declaration implies (auth, validation, ids in the path,
 * idempotency, If-Match, bodies): the states and sends behind it. Keyed by route
 * id, so a renamed route fails to compile here.
 */
const ROUTE_ERRORS: { readonly [K in EndpointId]?: readonly ErrorCode[] } = {
  'conversations.sendMessage': ['ACCOUNT_MISMATCH', 'OUTSIDE_SERVICE_WINDOW', ...SEND_REFUSALS],
  'messages.send': ['NOT_FOUND', 'ACCOUNT_MISMATCH', 'ACCOUNT_REQUIRED', 'OUTSIDE_SERVICE_WINDOW', ...SEND_REFUSALS],
  'messages.react': ['INVALID_PLATFORM', 'INVALID_STATE'],
  'tickets.update': ['INVALID_STATE'],
  'channels.update': ['INVALID_PLATFORM'],
  'channels.createConnectSession': ['INVALID_STATE'],
  'groups.create': ['INVALID_PLATFORM'],
  'groups.update': ['INVALID_PLATFORM'],
  // INVALID_STATE: the group holds its most entries; SERVICE_UNAVAILABLE: every parse process busy, and the queue
  // full; BODY_TIMEOUT: the upload stalled.
  'groups.addKnowledge': ['INVALID_STATE', 'PROMPT_INJECTION_DETECTED'],
  'groups.uploadKnowledge': ['BODY_TIMEOUT', 'INVALID_STATE', 'PROMPT_INJECTION_DETECTED', 'SERVICE_UNAVAILABLE'],
  'keys.create': ['INVALID_STATE'],
  'keys.rotate': ['INVALID_STATE'],
  'keys.revoke': ['INVALID_STATE'],
  'webhooks.create': ['INVALID_STATE'],
  'webhooks.signPayload': ['NOT_FOUND'],
  'webhooks.send': JOURNEY_START,
  'webhooks.triggerCampaign': JOURNEY_START,
  'journeys.create': ['INVALID_STATE', ...JOURNEY_STEPS],
  'journeys.replaceSteps': JOURNEY_STEPS,
  'journeys.setStatus': ['INVALID_STATE', ...JOURNEY_STEPS],
  'trigger.enroll': JOURNEY_START,
  'trigger.batch': ['NOT_FOUND', 'INVALID_STATE'],
  // trigger.validate: none. A dry run answers an unknown trigger, an inactive journey or a used-up quota as `issues`.
  // An event nothing listens to is accepted; the plan's enrollment quota is INVALID_STATE.
  'events.fire': ['INVALID_STATE'],
  'campaigns.create': ['NOT_FOUND', ...CAMPAIGN_SENDER],
  'campaigns.update': ['INVALID_STATE', ...CAMPAIGN_SENDER],
  'campaigns.send': ['INVALID_STATE', 'TEMPLATE_NOT_APPROVED', ...CAMPAIGN_SENDER],
  // A pinned number that is unknown, not a phone number, or disconnected.
  'templates.create': ['NOT_FOUND', 'ACCOUNT_MISMATCH', 'INVALID_STATE'],
  'templates.submit': ['INVALID_STATE'],
  'templates.send': [
    'ACCOUNT_MISMATCH',
    'AMBIGUOUS_INTEGRATION',
    'TEMPLATE_NOT_APPROVED',
    'INVALID_STATE',
    ...SEND_REFUSALS,
  ],
  'automations.trigger': ['NOT_FOUND', 'ACCOUNT_MISMATCH', 'OUTSIDE_SERVICE_WINDOW', 'INVALID_STATE', ...SEND_REFUSALS],
  'comments.reply': ['INVALID_STATE'],
  'comments.updateSettings': ['NOT_FOUND', 'INVALID_PLATFORM'],
};

const CHANNEL_ENUM = JSON.stringify(Channel.options);

/** A channel named in the input: a wrong one is 422 INVALID_PLATFORM rather than 400. */
export function namesAChannel(inputs: readonly unknown[]): boolean {
  return inputs.some((json) => JSON.stringify(json ?? null).includes(`"enum":${CHANNEL_ENUM}`));
}

/**
 * Every error code a route can answer, in the order of {@link ERROR_STATUS}: what its declaration
 * implies plus {@link ROUTE_ERRORS}. `inputs` are the JSON Schemas of its query and body.
 */
export function routeErrorCodes(entry: EndpointEntry, inputs: readonly unknown[]): ErrorCode[] {
  const { def } = entry;
  const codes = new Set<ErrorCode>(['REQUEST_HEADERS_TOO_LARGE', 'INTERNAL_ERROR', ...(ROUTE_ERRORS[entry.id] ?? [])]);
  const add = (...more: ErrorCode[]) => more.forEach((code) => codes.add(code));
  if (def.params || def.query || def.body || def.headers) add('VALIDATION_FAILED');
  if (def.auth !== false) {
    add('UNAUTHENTICATED', 'RATE_LIMITED');
    if (def.scope !== null) add('INSUFFICIENT_SCOPE');
    if (!def.testKeySynthetic) add('TEST_KEY_NOT_ALLOWED');
    if (def.write ?? def.method !== 'GET') add('PLAN_READ_ONLY');
  }
  if (def.params) add('NOT_FOUND');
  if (takesNoBody(def)) add('VALIDATION_FAILED');
  if (def.body || takesNoBody(def)) add('PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE');
  if (def.idempotencyKey) add('IDEMPOTENCY_KEY_REQUIRED', 'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_IN_USE');
  if (def.headers?.shape['if-match']) add('VERSION_CONFLICT');
  if (namesAChannel(inputs)) add('INVALID_PLATFORM');
  return (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((code) => codes.has(code));
}
