import { readLimited } from '../internal/read-limited.js';

/** Thrown by readBody when the answer is larger than allowed; the transport reports it as the answer's problem. */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`answer body is larger than ${limit} bytes (maxResponseBytes), not read further`);
  }
}

/** Why an answer's body cannot be used as JSON; the status and headers are still known. */
export interface BodyProblem {
  code: 'INVALID_RESPONSE' | 'RESPONSE_TOO_LARGE';
  message: string;
}

const SNIPPET_CHARS = 200; // enough to recognise a proxy's HTML page without flooding logs

/** The start of a text on one line, for an error message. */
export function snippet(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, SNIPPET_CHARS);
}

/** Reads a response body as text, refusing to hold more than `limit` bytes. */
export async function readBody(response: Response, limit: number): Promise<string> {
  const bytes = await readLimited(response, limit);
  if (bytes === null) throw new BodyTooLarge(limit);
  return new TextDecoder().decode(bytes);
}

/**
 * JSON when it parses; otherwise the text itself (a proxy's HTML page, JSON cut short) and the problem
 * saying so; `undefined` when empty.
 */
export function parseBody(text: string): { body: unknown; problem: BodyProblem | null } {
  if (text.trim() === '') return { body: undefined, problem: null };
  try {
    return { body: JSON.parse(text) as unknown, problem: null };
  } catch {
    return {
      body: text,
      problem: { code: 'INVALID_RESPONSE', message: `the body is not JSON (cut short?): ${snippet(text)}` },
    };
  }
}
