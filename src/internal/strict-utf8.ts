const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Bytes as UTF-8 text, strictly: a byte sequence that is not UTF-8 throws a TypeError instead of becoming
 * U+FFFD, so that garbled text is refused rather than passed on. A leading byte order mark is dropped
 * (JSON allows a parser to ignore it).
 */
export function strictUtf8(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}
