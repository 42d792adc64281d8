import { REDACTED } from './redact-text.js';

/**
 * What every printout of a stored delivery hides (the delivery inspector, `convo-kit deliveries show`): a body is
 * shown to people and copied around, while a replay sends the stored bytes themselves (the signature covers them).
 */

/** Keys whose values are never shown: the service's events carry none today, a user's custom fields might. */
const SECRET_KEY =
  /secret|token|passw(or)?d|passphrase|pwd|api[-_]?key|access[-_]?key|private[-_]?key|^auth$|authorization|signature|credential|cookie|session[-_]?id/i;
/** Values that are credentials whatever their key: an Authorization header's value, a webhook secret. */
const SECRET_VALUE = /^(Bearer|Basic) [\w.~+/-]{16,}=*$|^whsec_\S+$/;
const MAX_DEPTH = 20;
/** A body that is not JSON is shown by its first this-many characters. */
const MAX_TEXT_CHARS = 64 * 1024;

/** A copy of a parsed body with every secret-looking key's value replaced; bounded in depth. */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) return '[too deep]';
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        SECRET_KEY.test(key) ? REDACTED : redactSecrets(inner, depth + 1),
      ]),
    );
  }
  return typeof value === 'string' && SECRET_VALUE.test(value) ? REDACTED : value;
}

/** A stored body as people see it: JSON redacted, or the text itself (its first 64 KiB) when it is not JSON. */
export function redactedBody(body: Uint8Array): { json: unknown } | { text: string } {
  const text = new TextDecoder('utf-8', { ignoreBOM: false }).decode(body);
  try {
    return { json: redactSecrets(JSON.parse(text)) };
  } catch {
    return { text: text.slice(0, MAX_TEXT_CHARS) };
  }
}
