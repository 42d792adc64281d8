const REDACTED = '[redacted]';

/** `text` with every occurrence of `secret` (as is, or as escaped inside a JSON string) replaced. */
export function redact(text: string, secret: string): string {
  const escaped = JSON.stringify(secret).slice(1, -1);
  const out = text.replaceAll(secret, REDACTED);
  return escaped === secret ? out : out.replaceAll(escaped, REDACTED);
}

/** A copy of `headers` whose values hide `secret`, or the same object when none holds it. */
export function redactHeaders(headers: Headers, secret: string): Headers {
  let found = false;
  headers.forEach((value) => {
    found ||= value.includes(secret);
  });
  if (!found) return headers;
  const out = new Headers();
  headers.forEach((value, name) => out.append(name, redact(value, secret)));
  return out;
}
