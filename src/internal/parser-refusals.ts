import { createServer, maxHeaderSize, STATUS_CODES, type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { errorAnswer, logRefusal, type ErrorBody, type HttpAnswer } from './http-answer.js';

/** A request Node's HTTP parser refused before any handler saw it, in the terms an answer needs. */
export type ParserRefusal =
  | { kind: 'timeout' }
  /** The request line and headers together are over Node's limit (16 KiB unless --max-http-header-size). */
  | { kind: 'headers-too-large'; maxHeaderBytes: number }
  | { kind: 'chunk-extensions-too-large' }
  /** Anything else the parser refused (a broken request line, a header with invalid characters…): its code. */
  | { kind: 'malformed'; parserCode: string };

function refusalOf(error: NodeJS.ErrnoException): ParserRefusal | null {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { kind: 'timeout' };
    case 'HPE_HEADER_OVERFLOW':
      return { kind: 'headers-too-large', maxHeaderBytes: maxHeaderSize };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { kind: 'chunk-extensions-too-large' };
    case 'ECONNRESET':
      return null; // the client went away: nobody to answer
    default:
      return { kind: 'malformed', parserCode: error.code ?? 'parse error' };
  }
}

/** The message both envelopes give a malformed request. */
export const malformedMessage = (parserCode: string) => `The request is not valid HTTP/1.1 (${parserCode})`;

/**
 * Answers what Node's HTTP parser refuses in the server's own error envelope: Node alone writes a bare status
 * and no body. `answerFor` builds the answer (each server has its envelope: docs/errors.md for the emulator,
 * `{ error: { code, message } }` for the receiver); `onRefused` hears each one. Node's limits stay: they
 * bound what one connection may buffer.
 */
export function answerParserRefusals<Answer extends HttpAnswer<unknown>>(
  server: Server,
  answerFor: (refusal: ParserRefusal) => Answer,
  onRefused?: (answer: Answer) => void,
): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const refusal = refusalOf(error);
    if (!refusal || !socket.writable) return socket.destroy();
    const answer = answerFor(refusal);
    writeRaw(socket, answer);
    onRefused?.(answer);
  });
}

/** An answer written to the socket itself (no response object exists), closing the connection after it. */
function writeRaw(socket: Duplex, answer: HttpAnswer<unknown>): void {
  const body = answer.body === undefined ? undefined : JSON.stringify(answer.body);
  const content =
    body === undefined
      ? []
      : ['Content-Type: application/json; charset=utf-8', `Content-Length: ${Buffer.byteLength(body)}`];
  const headers = Object.entries(answer.headers ?? {}).map(([name, value]) => `${name}: ${value}`);
  socket.end(
    [
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}`,
      ...content,
      ...headers,
      'Connection: close',
      '',
      body ?? '',
    ].join('\r\n'),
  );
}

/** The receiver's envelope (README "What the receiver answers") for a request its parser refused. */
export function endpointParserAnswer(refusal: ParserRefusal): HttpAnswer<ErrorBody> {
  switch (refusal.kind) {
    case 'timeout':
      return errorAnswer(408, 'REQUEST_TIMEOUT', 'The request did not arrive in time');
    case 'headers-too-large':
      return errorAnswer(
        431,
        'REQUEST_HEADERS_TOO_LARGE',
        `The request line and headers are over ${refusal.maxHeaderBytes} bytes`,
      );
    case 'chunk-extensions-too-large':
      return errorAnswer(413, 'PAYLOAD_TOO_LARGE', 'The chunk extensions of the body are too large');
    case 'malformed':
      return errorAnswer(400, 'MALFORMED_REQUEST', malformedMessage(refusal.parserCode));
  }
}

/**
 * A node:http server for one of our endpoints (not yet listening): `listener` serves its requests, and
 * what Node's parser refuses is answered in the endpoint's envelope and logged as its own refusals are.
 */
export function envelopedServer(listener: RequestListener, log: Logger, what: string): Server {
  const server = createServer(listener);
  answerParserRefusals(server, endpointParserAnswer, (answer) => logRefusal(log, answer, what));
  return server;
}
