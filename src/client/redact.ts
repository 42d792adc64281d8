import { hideSecrets } from '../internal/redact-text.js';

/** `text` with every occurrence of the client's key (as is, or as escaped inside a JSON string) replaced. */
export function redact(text: string, secret: string): string {
  return hideSecrets(text, [secret]);
}

/** A copy of `headers` whose values hide `secret`, or the same object when none holds it. */
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
