import type { ErrorExplanation } from '../resources/index.js';
import { PLATFORM_ERROR_EXPLANATIONS, type Explanation } from './platform-error-explanations.js';

/**
 * Plain-language explanations of real provider error codes (the messaging platform's Cloud API codes)
 * and of the service's own refusals (platform-error-explanations.ts). `fault` attributes the failure:
 * `provider` when the messaging platform or the recipient's side decided it, `platform` when the sending
 * side (the service, its configuration or the caller's request) must change something.
 */
export const ERROR_EXPLANATIONS: Readonly<Record<string, Explanation>> = {
  '470': {
    what_happened: 'Free text was sent more than 24 hours after the customer last wrote (legacy code of 131047).',
    fault: 'platform',
    next_step:
      'Send an approved template instead (POST /v1/templates/:id/send); free text works again once the customer replies.',
    retryable: false,
  },
  '368': {
    what_happened: 'The sending account is temporarily blocked for policy violations.',
    fault: 'provider',
    next_step:
      'Review the policy notice in the provider dashboard and wait for the block to end; appeal there if it is wrong.',
    retryable: false,
  },
  '130429': {
    what_happened: "The account's message throughput limit was reached; the provider refused the excess.",
    fault: 'platform',
    next_step: 'Slow down and retry with backoff; spread broadcasts over time or raise the throughput tier.',
    retryable: true,
  },
  '130472': {
    what_happened: "The recipient's number is part of a provider experiment that withholds marketing messages.",
    fault: 'provider',
    next_step: 'Nothing to fix; do not resend the marketing message to this recipient.',
    retryable: false,
  },
  '131000': {
    what_happened: 'The provider failed for an unknown reason.',
    fault: 'provider',
    next_step: 'Retry with backoff; if it persists, check the provider status page.',
    retryable: true,
  },
  '131008': {
    what_happened: 'A required parameter is missing from the send request.',
    fault: 'platform',
    next_step: 'Compare the request with the message input object and add the missing field.',
    retryable: false,
  },
  '131009': {
    what_happened: 'A parameter value is not valid (wrong format, unknown id or unsupported value).',
    fault: 'platform',
    next_step: 'Correct the value named in the error details and send again.',
    retryable: false,
  },
  '131016': {
    what_happened: 'The provider service is temporarily unavailable.',
    fault: 'provider',
    next_step: 'Retry with backoff.',
    retryable: true,
  },
  '131021': {
    what_happened: 'The recipient is the sending number itself.',
    fault: 'platform',
    next_step: 'Send to the customer, not to the business number.',
    retryable: false,
  },
  '131026': {
    what_happened:
      'The message could not be delivered: the recipient is not on the messaging app, has not accepted its terms, or runs an app version too old for this message.',
    fault: 'provider',
    next_step: 'Confirm the number with the customer and reach them another way; do not retry the same send.',
    retryable: false,
  },
  '131031': {
    what_happened: 'The business account is locked, usually after a policy or integrity violation.',
    fault: 'provider',
    next_step: 'Open the provider dashboard, resolve the account restriction, then send again.',
    retryable: false,
  },
  '131042': {
    what_happened: 'The business account has a payment problem (no valid payment method or an overdue bill).',
    fault: 'platform',
    next_step: "Fix the payment method in the provider's billing settings, then send again.",
    retryable: false,
  },
  '131047': {
    what_happened: 'More than 24 hours passed since the customer last wrote, so free text is not allowed.',
    fault: 'platform',
    next_step:
      'Send an approved template instead (POST /v1/templates/:id/send); free text works again once the customer replies.',
    retryable: false,
  },
  '131048': {
    what_happened: 'The spam rate limit was hit: too many earlier messages were blocked or reported by recipients.',
    fault: 'provider',
    next_step: 'Pause sends to cold audiences, improve message quality and retry later.',
    retryable: false,
  },
  '131049': {
    what_happened:
      "The provider accepted the send, then did not deliver it to keep the recipient's experience healthy (per-user marketing limit).",
    fault: 'provider',
    next_step:
      'Do not resend at once; wait at least a day or send a utility template. Five throttled sends of one template in an hour pause it.',
    retryable: false,
  },
  '131050': {
    what_happened: 'The recipient stopped marketing messages from this business.',
    fault: 'provider',
    next_step: 'Respect the choice: send only utility or service messages to this recipient.',
    retryable: false,
  },
  '131051': {
    what_happened: 'The message type is not supported on this channel.',
    fault: 'platform',
    next_step: 'Send text, media, buttons or a CTA URL as described by the message input object.',
    retryable: false,
  },
  '131052': {
    what_happened: 'The media the customer sent could not be downloaded.',
    fault: 'provider',
    next_step: 'Ask the customer to send the file again.',
    retryable: false,
  },
  '131053': {
    what_happened:
      'The media of the send could not be uploaded or processed (unreachable URL, unsupported type or too large).',
    fault: 'platform',
    next_step: 'Check that media.url is a public HTTPS URL of a supported type and size.',
    retryable: false,
  },
  '131056': {
    what_happened: 'Too many messages went to the same recipient in a short time (pair rate limit).',
    fault: 'platform',
    next_step: 'Wait a minute before writing to this recipient again; batch the content into fewer messages.',
    retryable: true,
  },
  '132000': {
    what_happened: "The number of template parameters does not match the template's placeholders.",
    fault: 'platform',
    next_step: 'Send exactly one value per {{n}} placeholder of the approved template.',
    retryable: false,
  },
  '132001': {
    what_happened: 'The template does not exist in that language, or is not approved.',
    fault: 'platform',
    next_step: 'Check the template name, language and status (GET /v1/templates) and send an approved one.',
    retryable: false,
  },
  '132005': {
    what_happened: 'The template text with its parameters filled in is too long.',
    fault: 'platform',
    next_step: 'Shorten the parameter values.',
    retryable: false,
  },
  '132007': {
    what_happened: 'The template content breaks a formatting or character policy.',
    fault: 'platform',
    next_step: 'Remove the disallowed characters or formatting and submit the template for review again.',
    retryable: false,
  },
  '132012': {
    what_happened:
      'A template parameter has the wrong format (for example text where media or a currency was expected).',
    fault: 'platform',
    next_step: 'Send each parameter in the type the template declares.',
    retryable: false,
  },
  '132015': {
    what_happened: 'The template is paused because of low quality (many blocks or reports).',
    fault: 'provider',
    next_step: 'Edit the template to improve it or use another one; paused templates resume after the provider review.',
    retryable: false,
  },
  '132016': {
    what_happened: 'The template is permanently disabled after repeated quality pauses.',
    fault: 'provider',
    next_step: 'Create a new template with different content.',
    retryable: false,
  },
  '133010': {
    what_happened: 'The sending phone number is not registered with the provider.',
    fault: 'platform',
    next_step: 'Finish the number registration (POST /v1/channels/connect-sessions) and send again.',
    retryable: false,
  },
  ...PLATFORM_ERROR_EXPLANATIONS,
};

/** The explanation of `code` (platform codes are matched case-insensitively), or undefined. */
export function explainErrorCode(code: string): ErrorExplanation | undefined {
  const key = Object.hasOwn(ERROR_EXPLANATIONS, code) ? code : code.toUpperCase();
  const explanation = Object.hasOwn(ERROR_EXPLANATIONS, key) ? ERROR_EXPLANATIONS[key] : undefined;
  return explanation && { code: key, ...explanation };
}
