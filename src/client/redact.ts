import { redactText } from '../internal/redact-text.js';

/**
 * A copy of `headers` whose values hide `secret`, whole or in pieces, and every other credential-looking
 * part (redactText: at most a key's type prefix stays readable), or the same object when none holds one.
 */
export function redactHeaders(headers: Headers, secret: string): Headers {
  let found = false;
  headers.forEach((value) => {
    found ||= redactText(value, [secret]) !== value;
  });
  if (!found) return headers;
  const out = new Headers();
  headers.forEach((value, name) => out.append(name, redactText(value, [secret])));
  return out;
}
