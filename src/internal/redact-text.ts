/**
 * Free text that may quote a credential (an error's message, an answer's body), made fit to keep, log or
 * print: the project never logs or prints a secret, key or signature.
 */

export const REDACTED = '[redacted]';

/** Shorter than any key or secret the service issues (`svc_live_` or `whsec_` + 32): replacing it would garble the text, not hide a key. */
const MIN_SECRET_CHARS = 12;

/** Names whose `=` value (a query or form field) or quoted value (JSON, a JS object) is a credential. */
const NAME = String.raw`[\w-]*?(?:key|token|secret|pass|passw(?:or)?d|pwd|sig|signature|credentials?|auth|authorization|session(?:[_-]?id)?|cookie)s?`;

/** Each credential shape and what it becomes; the kind of thing hidden stays readable. */
const PATTERNS: readonly (readonly [RegExp, string])[] = [
  // The service's API keys and webhook secrets (spec: `svc_live_`/`svc_test_` + 32, `whsec_` + the rest).
  [/\b(svc_live_|svc_test_|whsec_)[\w-]+/g, `$1${REDACTED}`],
  // X-Service-Signature values: a valid one replays within the tolerance window.
  [/\bsha256=[0-9a-f]{64}\b/gi, `sha256=${REDACTED}`],
  // An Authorization header's value whatever its scheme (quoted, as a line, or in an object's printout).
  [/(\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:[A-Za-z]+ +)?)[^\s"',;&]+/gi, `$1${REDACTED}`],
  [/\b(Bearer|Basic) +[\w.~+/-]{16,}=*/gi, `$1 ${REDACTED}`],
  // A JSON Web Token on its own: base64url of `{"` is `eyJ`.
  [/\beyJ[\w-]{10,}(?:\.[\w-]*){1,2}/g, REDACTED],
  // key=…, access_token=…, password=…: query strings and forms. The value ends where a URL or sentence would.
  [new RegExp(String.raw`((?<![\w-])${NAME}=)[^\s&#;,'"<>()\[\]\\]+`, 'gi'), `$1${REDACTED}`],
  // "apiKey": "…" and 'x-api-key': '…': JSON and JS object printouts.
  [new RegExp(String.raw`((?<![\w-])["']${NAME}["']\s*:\s*["'])(?:[^"'\\\n]|\\.)*`, 'gi'), `$1${REDACTED}`],
];

/** `text` with every occurrence of each secret (as is, as escaped in a JSON string, or percent-encoded) replaced. */
export function hideSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_CHARS) continue;
    for (const form of new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)]))
      out = out.replaceAll(form, REDACTED);
  }
  return out;
}

/**
 * `text` with the given secrets hidden (so even one without a known prefix is caught), then every
 * credential-looking part: the service's keys and secrets by prefix, signatures, bearer tokens, and
 * `key=`, `token=`, `secret=`, `password=` style values.
 */
export function redactText(text: string, secrets: readonly string[] = []): string {
  return PATTERNS.reduce(
    (out, [pattern, replacement]) => out.replace(pattern, replacement),
    hideSecrets(text, secrets),
  );
}
