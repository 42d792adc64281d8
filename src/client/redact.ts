const REDACTED = '[redacted]';

/** Shorter than any key the service issues (`svc_live_` + 32): replacing it would garble the text, not hide a key. */
const MIN_SECRET_CHARS = 12;

/** `text` with every occurrence of `secret` (as is, or as escaped inside a JSON string) replaced. */
export function redact(text: string, secret: string): string {
  if (secret.length < MIN_SECRET_CHARS) return text;
  const escaped = JSON.stringify(secret).slice(1, -1);
  const out = text.replaceAll(secret, REDACTED);
  return escaped === secret ? out : out.replaceAll(escaped, REDACTED);
}

/** A copy of `headers` whose values hide `secret`, or the same object when none holds it. */
export function redactHeaders(headers: Headers, secret: string): Headers {
  if (secret.length < MIN_SECRET_CHARS) return headers;
  let found = false;
  headers.forEach((value) => {
    found ||= value.includes(secret);
  });
  if (!found) return headers;
  const out = new Headers();
  headers.forEach((value, name) => out.append(name, redact(value, secret)));
  return out;
}
