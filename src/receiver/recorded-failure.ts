import type { CheckedSecrets } from '../signature/secrets-option.js';
import { redactText } from '../internal/redact-text.js';
import { resolveSecrets } from '../signature/index.js';
import { MAX_ERROR_CHARS } from '../store/store-rules.js';
import { ReceiverError } from './receiver-error.js';

/**
 * How much of a message or stack is read for secrets. The store keeps MAX_ERROR_CHARS of the redacted
 * text; reading far past that bounds the work without cutting a secret where the kept text could show it.
 */
const READ_CHARS = 16 * MAX_ERROR_CHARS;

/** The receiver's own secrets, to hide even one without the `whsec_` prefix; none if a provider fails now. */
export async function knownSecrets(source: CheckedSecrets): Promise<readonly string[]> {
  try {
    return await resolveSecrets(source);
  } catch {
    return [];
  }
}

/** What is kept of free text: its credentials hidden, then cut to what the store keeps. */
function kept(text: string, secrets: readonly string[]): string {
  return redactText(text.slice(0, READ_CHARS), secrets).slice(0, MAX_ERROR_CHARS);
}

/** A copy of `error` made by `make` from its kept message, with its name and its stack redacted. */
function redactedCopy<E extends Error>(error: Error, secrets: readonly string[], make: (message: string) => E): E {
  const message = kept(error.message, secrets);
  const copy = make(message);
  copy.name = error.name;
  // The stack's first line repeats name and message; the frames after it are kept (redacted) for debugging.
  const head = `${error.name}: ${error.message}`;
  const frames = error.stack?.startsWith(head) ? error.stack.slice(head.length) : '';
  copy.stack = `${error.name}: ${message}${kept(frames, secrets)}`;
  return copy;
}

/**
 * A handler's failure as the receiver records and logs it: the store's `last_error` and attempt, and the
 * log line, get one redacted text (a handler's error may quote a URL with `?key=`, an Authorization header or
 * the webhook secret). The error logged is a copy with that message, a redacted stack, and the handler's own
 * error (its cause) redacted the same way; `onError` listeners still get the original.
 */
export function recordedFailure(failure: ReceiverError, secrets: readonly string[]): ReceiverError {
  const { cause } = failure;
  const shownCause = cause instanceof Error ? redactedCopy(cause, secrets, (m) => new Error(m)) : undefined;
  return redactedCopy(failure, secrets, (m) => new ReceiverError(failure.code, m, shownCause && { cause: shownCause }));
}
