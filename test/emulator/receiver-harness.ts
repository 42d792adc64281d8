import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pino } from 'pino';
import { createReceiver, type Receiver, type ReceiverResponse } from '../../src/receiver/index.js';
import { tempDir } from './platform-harness.js';

export interface ReceiverBehindPort {
  receiver: Receiver;
  /** Where the emulator posts: the server in front of the receiver. */
  url: string;
  close(): Promise<void>;
}

/**
 * A createReceiver receiver on a SQLite file, started, behind a real HTTP server that hands it every POST, as
 * an integration runs it. `status` may answer otherwise than the receiver did (a proxy failing after the ack);
 * `seen` hears each arrival. `handlers` registers the handlers before it starts; the caller closes it.
 */
export async function receiverBehindPort(options: {
  secrets: () => Promise<string | string[]>;
  handlers(receiver: Receiver): void;
  /** @default 20 */
  pollIntervalMs?: number;
  status?: (answer: ReceiverResponse, arrival: number) => number;
  seen?: (arrival: { headers: IncomingHttpHeaders; rawBody: Buffer; answer: ReceiverResponse }) => void;
}): Promise<ReceiverBehindPort> {
  const receiver = createReceiver({
    secrets: options.secrets,
    dbPath: join(tempDir(), 'receiver.db'),
    logger: pino({ level: 'silent' }),
    pollIntervalMs: options.pollIntervalMs ?? 20,
  });
  options.handlers(receiver);
  await receiver.start();
  let arrivals = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const rawBody = Buffer.concat(chunks);
      const answer = await receiver.handle({ headers: req.headers as Record<string, string>, rawBody });
      options.seen?.({ headers: req.headers, rawBody, answer });
      const status = options.status?.(answer, ++arrivals) ?? answer.status;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    receiver,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await receiver.close();
    },
  };
}
