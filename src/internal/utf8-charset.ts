import { MIMEType } from 'node:util';

const USUAL_UTF8 = /^[\w.+-]+\/[\w.+-]+;\s*charset="?utf-8"?\s*$/i;

/**
 * Whether a Content-Type lets the body be read as UTF-8: no charset, or any label the Encoding Standard
 * gives UTF-8 (`utf-8`, `UTF8`, …), since a receiver must not refuse a genuine delivery over a spelling.
 * JSON is UTF-8 (RFC 8259); a body declared `utf-16` would otherwise be read as UTF-8 regardless. (The
 * emulator, holding clients to the service's rule, takes `utf-8` alone: read-json-body.ts.)
 */
export function declaresUtf8(contentType: string): boolean {
  // The receiver asks this of every delivery: a bare type, or the usual spelling, skips the parse.
  if (!contentType.includes(';') || USUAL_UTF8.test(contentType)) return true;
  let charset: string | null;
  try {
    charset = new MIMEType(contentType).params.get('charset');
    return charset === null || new TextDecoder(charset).encoding === 'utf-8';
  } catch {
    return false;
  }
}
