import { escapeRegExp } from './escape-reg-exp.js';

/**
 * Free text that may quote a credential (an error's message, an answer's body), made fit to keep, log or
 * print: the project never logs or prints a secret, key or signature.
 */

export const REDACTED = '[redacted]';

/** Shorter than any key or secret the service issues (`svc_live_` or `whsec_` + 32): replacing it would garble the text, not hide a key. */
const MIN_SECRET_CHARS = 12;

/** What a key or secret of the service starts with: its kind, not part of the secret, so it may stay readable. */
const TYPE_PREFIXES = ['svc_live_', 'svc_test_', 'whsec_'] as const;

/**
 * This many characters in a row of a secret (after its type prefix) are a piece of it: an answer that
 * echoes a key cut short, or only its end (`key ending in …9hKm2nPq`), must not carry that piece on.
 * Shorter runs are too likely to be anything else, and give too little of a 32-character secret.
 */
const PIECE_CHARS = 8;
/** A key is 41 characters; a longer secret is checked by its first this many (a bound on the work). */
const PIECE_SOURCE_CHARS = 256;

/** Names whose `=` value (a query or form field) or quoted value (JSON, a JS object) is a credential. */
const NAME = String.raw`[\w-]*?(?:key|token|secret|pass|passw(?:or)?d|pwd|sig|signature|credentials?|auth|authorization|session(?:[_-]?id)?|cookie)s?`;

/** A character of a `name=value` value: it ends where a URL, a sentence or a quoted string would. */
const QUERY_VALUE_CHAR = String.raw`[^\s&#;,'"<>()\[\]\\]`;

/** Each credential shape and what it becomes; the kind of thing hidden stays readable. */
const PATTERNS: readonly (readonly [RegExp, string])[] = [
  // The service's API keys and webhook secrets (spec: `svc_live_`/`svc_test_` + 32, `whsec_` + the rest).
  [new RegExp(String.raw`\b(${TYPE_PREFIXES.join('|')})[\w-]+`, 'g'), `$1${REDACTED}`],
  // X-Service-Signature values: a valid one replays within the tolerance window.
  [/\bsha256=[0-9a-f]{64}\b/gi, `sha256=${REDACTED}`],
  // An Authorization header's value whatever its scheme (quoted, as a line, or in an object's printout).
  [/(\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:[A-Za-z]+ +)?)[^\s"',;&]+/gi, `$1${REDACTED}`],
  [/\b(Bearer|Basic) +[\w.~+/-]{16,}=*/gi, `$1 ${REDACTED}`],
  // A URL's password (postgres://app:…@db/crm, as a driver's error may quote its connection string); the user stays.
  // From `://` on, the scheme unread, and in bounded runs: a scheme pattern made a 40 kB `a.a.a.…` take 370 ms.
  [/(:\/\/[^\s:/@]{1,256}:)[^\s@/]{1,1024}@/g, `$1${REDACTED}@`],
  // A JSON Web Token on its own: base64url of `{"` is `eyJ`.
  [/\beyJ[\w-]{10,}(?:\.[\w-]*){1,2}/g, REDACTED],
  // key=…, access_token=…, password=…: query strings and forms. The value ends where a URL or sentence would;
  // one a pattern above already hid (`key=whsec_[redacted]`) is left as it is, not marked twice.
  [
    new RegExp(
      String.raw`((?<![\w-])${NAME}=)(?!${QUERY_VALUE_CHAR}*${escapeRegExp(REDACTED)})${QUERY_VALUE_CHAR}+`,
      'gi',
    ),
    `$1${REDACTED}`,
  ],
  // "apiKey": "…" and 'x-api-key': '…': JSON and JS object printouts.
  [new RegExp(String.raw`((?<![\w-])["']${NAME}["']\s*:\s*["'])(?:[^"'\\\n]|\\.)*`, 'gi'), `$1${REDACTED}`],
];

/** A letter, digit, `_` or `-`: what keys and secrets are written in, and so what one word of them spans. */
function inWord(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95 ||
    code === 45
  );
}

/**
 * Every word (run of letters, digits, `_` and `-`) that holds a piece of `secret` becomes `[redacted]`,
 * its type prefix kept. Found with indexOf rather than one regular expression over all words: a body of
 * 16 MiB without a space overflowed the regex engine's stack.
 */
function hidePieces(text: string, secret: string): string {
  const prefix = TYPE_PREFIXES.find((p) => secret.startsWith(p)) ?? '';
  const body = secret.slice(prefix.length, prefix.length + PIECE_SOURCE_CHARS);
  let hidden: Uint8Array | undefined; // 1 at the first character of each word to hide, 2 over the rest of it
  for (let i = 0; i + PIECE_CHARS <= body.length; i++) {
    const piece = body.slice(i, i + PIECE_CHARS);
    for (let at = text.indexOf(piece); at !== -1; ) {
      hidden ??= new Uint8Array(text.length);
      let start = at;
      while (start > 0 && inWord(text.charCodeAt(start - 1))) start--;
      let end = at + PIECE_CHARS;
      while (end < text.length && inWord(text.charCodeAt(end))) end++;
      if (hidden[start] !== 1) hidden.fill(2, start + 1, end)[start] = 1;
      at = text.indexOf(piece, end);
    }
  }
  if (hidden === undefined) return text;
  const parts: string[] = [];
  let kept = 0;
  for (let i = 0; i < text.length; i++) {
    if (hidden[i] !== 1) continue;
    let end = i + 1;
    while (end < text.length && hidden[end] === 2) end++;
    const word = text.slice(i, end);
    parts.push(text.slice(kept, i), TYPE_PREFIXES.find((p) => word.startsWith(p)) ?? '', REDACTED);
    kept = end;
    i = end - 1;
  }
  parts.push(text.slice(kept));
  return parts.join('');
}

/**
 * `text` with every occurrence of each secret (as is, as escaped in a JSON string, or percent-encoded)
 * replaced, and then every word holding a piece of one (the secret cut short, or its end alone).
 */
export function hideSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_CHARS) continue;
    for (const form of new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)]))
      out = out.replaceAll(form, REDACTED);
    out = hidePieces(out, secret);
  }
  return out;
}

/**
 * `text` with the given secrets hidden (so even one without a known prefix is caught), then every
 * credential-looking part: the service's keys and secrets by prefix, signatures, bearer tokens, a URL's
 * password, and `key=`, `token=`, `secret=`, `password=` style values.
 */
export function redactText(text: string, secrets: readonly string[] = []): string {
  return PATTERNS.reduce(
    (out, [pattern, replacement]) => out.replace(pattern, replacement),
    hideSecrets(text, secrets),
  );
}

/**
 * A stored error as the CLI and the inspector show it. The receiver stores errors redacted, but a row written
 * by an earlier version, or by another program on the same store, may still hold a credential.
 */
export function shownError(error: string | null): string | null {
  return error === null ? null : redactText(error);
}
