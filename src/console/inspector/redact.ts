/** Keys whose values a page never shows: the service's events carry none today, a user's custom fields might. */
const SECRET_KEY =
  /secret|token|passw(or)?d|passphrase|pwd|api[-_]?key|access[-_]?key|private[-_]?key|^auth$|authorization|signature|credential|cookie|session[-_]?id/i;
/** Values that are credentials whatever their key: an Authorization header's value, a webhook secret. */
const SECRET_VALUE = /^(Bearer|Basic) [\w.~+/-]{16,}=*$|^whsec_\S+$/;
const MAX_DEPTH = 20;
export const REDACTED = '[redacted]';

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

/** The stored body as the page shows it: JSON redacted and indented, or the text itself when it is not JSON. */
export function bodyForPage(body: Uint8Array): { json: unknown } | { text: string } {
  const text = new TextDecoder('utf-8', { ignoreBOM: false }).decode(body);
  try {
    return { json: redactSecrets(JSON.parse(text)) };
  } catch {
    return { text: text.slice(0, 64 * 1024) };
  }
}
