// The receiving side of bench/fanout.bench.ts, in its own process so that it never shares the emulator's
// event loop: one node:http server, endpoint i at /hook/<i>, which verifies each delivery's signature
// with that endpoint's secret and answers 200 (or 401). Secrets arrive over IPC; counts are sent when asked.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verify } from '../src/signature/index.js';

/** Bodies are the emulator's event envelopes, a few KiB at most; anything larger is refused unread. */
const MAX_BODY_BYTES = 256 * 1024;

let secrets: string[] = [];
let verified = 0;
let refused = 0;

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req
      .on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) req.destroy(new Error('body too large'));
        else chunks.push(chunk);
      })
      .on('end', () => resolve(Buffer.concat(chunks)))
      .on('error', reject);
  });
}

const server = createServer((req, res) => {
  const secret = secrets[Number(/^\/hook\/(\d+)$/.exec(req.url ?? '')?.[1] ?? -1)];
  readBody(req)
    .then((body) => {
      if (secret === undefined) throw new Error(`no endpoint at ${req.url}`);
      return verify({
        body,
        signature: req.headers[SIGNATURE_HEADER] as string | undefined,
        timestamp: req.headers[TIMESTAMP_HEADER] as string | undefined,
        secrets: secret,
      });
    })
    .then(() => {
      verified++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    })
    .catch(() => {
      refused++;
      res.writeHead(401).end();
    });
});

server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
process.on('message', (message: { secrets?: string[] } | 'stats') => {
  if (message === 'stats') {
    process.send!({ verified, refused });
    return;
  }
  if (message.secrets) {
    secrets = message.secrets;
    verified = 0;
    refused = 0;
    process.send!('ready');
  }
});
