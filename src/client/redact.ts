import { redactText } from '../internal/redact-text.js';

/**
 * `text` with the client's key hidden, whole or in pieces (cut short, or only its end), and every other
 * credential-looking part (another key of the service, a bearer token, `key=…`): at most a key's type
 * prefix stays readable (`svc_live_[redacted]`).
 */
export function redact(text: string, secret: string): string {
  return redactText(text, [secret]);
}

/** A copy of `headers` whose values hide `secret` (as `redact` does), or the same object when none holds it. */
export function redactHeaders(headers: Headers, secret: string): Headers {
  let found = false;
  headers.forEach((value) => {
    found ||= redact(value, secret) !== value;
  });
  if (!found) return headers;
  const out = new Headers();
  headers.forEach((value, name) => out.append(name, redact(value, secret)));
  return out;
}
