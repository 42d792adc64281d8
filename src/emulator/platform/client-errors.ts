import { maxHeaderSize, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiFailure } from '../api-failure.js';
import { newRequestId } from './request-id.js';
import { errorEnvelope } from './send-failure.js';

/** The envelope for a request Node refused to parse; null when nothing should be written (a reset). */
function failureOf(error: NodeJS.ErrnoException, maxHeaderBytes: number): ApiFailure | null {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiFailure(
        'REQUEST_HEADERS_TOO_LARGE',
        `The request line and headers are over ${maxHeaderBytes} bytes; a long query string counts, so send large input in a JSON body`,
        { details: [{ in: 'headers', path: '', message: `over ${maxHeaderBytes} bytes with the request line` }] },
      );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ApiFailure('PAYLOAD_TOO_LARGE', 'The chunk extensions of the body are too large');
    case 'ECONNRESET':
      return null;
    default:
      return new ApiFailure('VALIDATION_FAILED', `The request is not valid HTTP/1.1 (${error.code ?? 'parse error'})`);
  }
}

/**
 * Answers what Node's HTTP parser refuses before the app sees a request (headers over 16 KiB, a broken
 * request line) in the error envelope with an X-Request-ID, as every answer is (docs/errors.md); Node
 * alone writes a bare status. Node's limit stays: it bounds what one connection may buffer.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable) return socket.destroy();
    // Node's own answer to a timeout, 408 with no body, still names the request.
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return writeRaw(socket, 408, newRequestId());
    // Node's limit on the request line and headers together: 16 KiB unless --max-http-header-size says otherwise.
    const failure = failureOf(error, maxHeaderSize);
    if (!failure) return socket.destroy();
    const requestId = newRequestId();
    const body = JSON.stringify(errorEnvelope(failure, requestId));
    writeRaw(socket, failure.status, requestId, body);
  });
}

/** An answer written to the socket itself (no request object exists), closing the connection after it. */
function writeRaw(socket: Duplex, status: number, requestId: string, body?: string): void {
  const content =
    body === undefined
      ? []
      : ['Content-Type: application/json; charset=utf-8', `Content-Length: ${Buffer.byteLength(body)}`];
  socket.end(
    [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      ...content,
      `X-Request-ID: ${requestId}`,
      'Connection: close',
      '',
      body ?? '',
    ].join('\r\n'),
  );
}
