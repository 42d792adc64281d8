import { expect } from 'vitest';
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  /** The status line and headers, as sent. */
  headers: string;
  body: string;
}

/** Bytes no HTTP client would send, written on a socket; the answer read until the server closes. */
export function rawExchange(port: number, bytes: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', () => {
      const [head = '', body = ''] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head, body });
    });
    socket.on('error', reject);
  });
}

/** What Node's parser refuses, each with the status and code our endpoints' envelope gives it. */
export const UNPARSABLE_REQUESTS = [
  ['a broken request line', 'NOT HTTP AT ALL\r\n\r\n', 400, 'MALFORMED_REQUEST', /not valid HTTP\/1\.1 \(HPE_/],
  [
    'a header with invalid characters',
    'POST /webhooks HTTP/1.1\r\nHost: x\r\nX-Service-Event: ticket\u0001created\r\n\r\n',
    400,
    'MALFORMED_REQUEST',
    /not valid HTTP\/1\.1 \(HPE_INVALID_HEADER_TOKEN\)/,
  ],
  [
    'an oversized header block',
    `POST /webhooks HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20 * 1024)}\r\n\r\n`,
    431,
    'REQUEST_HEADERS_TOO_LARGE',
    /over 16384 bytes/,
  ],
] as const;

/** The answer is the refusal `unparsable` expects, in the `{ error: { code, message } }` envelope, closing. */
export function expectEnvelopedRefusal(answer: RawAnswer, unparsable: (typeof UNPARSABLE_REQUESTS)[number]): void {
  const [what, , status, code, message] = unparsable;
  expect(answer.status, what).toBe(status);
  expect(answer.headers, what).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/);
  expect(answer.headers, what).toMatch(/\r\nConnection: close/);
  const body = JSON.parse(answer.body) as { error: { code: string; message: string } };
  expect(Object.keys(body.error).sort(), what).toEqual(['code', 'message']);
  expect(body.error.code, what).toBe(code);
  expect(body.error.message, what).toMatch(message);
}

/** How a refused upload ended for its sender: the answer it read, and whether the connection was then reset. */
export interface UploadEnding {
  status: number | null;
  reset: boolean;
}

/**
 * A POST that sends its head and the first `sendFirst` bytes of `body`, reads the whole answer (by its
 * Content-Length), and only then sends the rest of the body and its end, as a client still uploading does.
 * A server that closes a connection with bytes of it unread makes the kernel send a reset, which a sender
 * still writing hears instead of (or before) the answer. The order is fixed, so the ending does not
 * depend on timing: a reset here is the server's doing.
 */
export function uploadAfterAnswer(port: number, head: string, body: Buffer, sendFirst: number): Promise<UploadEnding> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`${head}Content-Length: ${body.length}\r\n\r\n`);
      socket.write(body.subarray(0, sendFirst));
    });
    let received = Buffer.alloc(0);
    let status: number | null = null;
    let reset = false;
    socket.on('data', (chunk: Buffer) => {
      if (status !== null) return;
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const headers = received.subarray(0, end).toString('latin1');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(headers)?.[1] ?? 0);
      if (received.length < end + 4 + length) return;
      status = Number(headers.split(' ')[1]);
      socket.end(body.subarray(sendFirst));
    });
    socket.on('error', () => (reset = true));
    socket.on('close', () => resolve({ status, reset }));
  });
}
