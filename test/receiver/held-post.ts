import { request, type IncomingHttpHeaders } from 'node:http';

// A request whose body is declared but held back by the client: an answer that arrives while the body
// is still unsent was given without reading it (README "What the receiver answers").

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: { error?: { code: string }; received?: boolean };
}

/** A POST that sends its headers and `sendNow` bytes, then holds the rest of the declared body until `finish`. */
export function heldPost(url: string, headers: Record<string, string>, body: Buffer, sendNow: number) {
  const req = request(url, {
    method: 'POST',
    agent: false,
    headers: { ...headers, 'content-length': String(body.length) },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString()) }),
      );
    });
    // Once answered, the server may close a connection whose body it did not want: not an error here.
    req.on('error', (error) => reject(error));
  });
  req.flushHeaders();
  if (sendNow > 0) req.write(body.subarray(0, sendNow));
  return {
    answer,
    finish: () => {
      if (!req.destroyed) req.end(body.subarray(sendNow));
    },
  };
}
