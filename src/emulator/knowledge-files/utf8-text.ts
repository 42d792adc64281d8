import { strictUtf8 } from '../../internal/strict-utf8.js';
import { notParsable } from './refusals.js';

/**
 * Decodes a text file strictly as UTF-8 (a byte sequence that is not UTF-8 is refused, not replaced), with
 * its byte-order mark dropped. A NUL character marks a binary file given a text name: refused too.
 */
export function decodeUtf8(bytes: Buffer, type: string): string {
  let text: string;
  try {
    text = strictUtf8(bytes);
  } catch {
    throw notParsable(type, 'it is not UTF-8 text');
  }
  if (text.includes('\u0000')) throw notParsable(type, 'it contains binary data (a NUL byte)');
  return text;
}
