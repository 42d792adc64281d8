import type { IncomingMessage, ServerResponse } from 'node:http';

export interface DrainBounds {
  /** Bytes of the body read and dropped after the answer, at most. */
  maxBytes: number;
  /** How long they may take, at most. */
  timeoutMs: number;
}

/**
 * Ends a response whose answer is already written (whole, by its Content-Length) once the rest of the request's
 * body is in, read and dropped. A connection closed with bytes of it unread, or with bytes still coming, is
 * reset by the kernel, and a sender still uploading hears that reset, often before the answer it was sent, so
 * it cannot tell a refusal from a crash (issue 25). Past the bounds the connection closes anyway, by then long
 * after the answer went out.
 */
export function endAfterBody(req: IncomingMessage, res: ServerResponse, { maxBytes, timeoutMs }: DrainBounds): void {
  if (req.complete) return void res.end();
  let left = maxBytes;
  const end = () => {
    clearTimeout(timer);
    req.off('data', drop).off('end', end).off('close', end);
    res.end();
  };
  const drop = (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) end();
  };
  const timer = setTimeout(end, timeoutMs);
  req.on('data', drop).once('end', end).once('close', end);
  req.resume();
}
