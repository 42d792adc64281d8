import { readLimited } from '../internal/read-limited.js';

/** Thrown by readBody when the answer is larger than allowed; the transport turns it into a ResponseValidationError. */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`answer body is larger than ${limit} bytes (maxResponseBytes)`);
  }
}

/** Reads a response body as text, refusing to hold more than `limit` bytes. */
export async function readBody(response: Response, limit: number): Promise<string> {
  const bytes = await readLimited(response, limit);
  if (bytes === null) throw new BodyTooLarge(limit);
  return new TextDecoder().decode(bytes);
}

/** JSON when it parses, the text otherwise (a proxy's HTML page), `undefined` when empty. */
export function parseBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
