/**
 * The one way the receiver turns stored or arriving bytes into text, at intake and again at dispatch, so
 * a body acked at intake always reads the same later: strict UTF-8, a leading byte order mark dropped
 * (JSON allows a parser to ignore it). Throws a TypeError on bytes that are not UTF-8.
 */
const utf8 = new TextDecoder('utf-8', { fatal: true });

export function decodeBody(body: Uint8Array): string {
  return utf8.decode(body);
}
