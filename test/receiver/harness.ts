import express from 'express';
import { pino, type Logger } from 'pino';
import request from 'supertest';
import { Writable } from 'node:stream';
import { createReceiver, type Receiver, type ReceiverOptions } from '../../src/receiver/index.js';
import type { SignedDelivery } from '../../src/testing/index.js';

export const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

export const silent: Logger = pino({ level: 'silent' });

/** A real pino logger whose lines are kept, to check what the receiver says (and never says). */
export function capturingLogger(): { logger: Logger; text: () => string; records: () => Record<string, unknown>[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const logger = pino({ level: 'debug' }, sink);
  return {
    logger,
    text: () => lines.join(''),
    records: () =>
      lines
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

/** A receiver on a real SQLite file with fast polling and immediate retries; close it in afterEach. */
export function testReceiver(dbPath: string, options: Partial<ReceiverOptions> = {}): Receiver {
  return createReceiver({
    secret: SECRET,
    dbPath,
    logger: silent,
    pollIntervalMs: 20,
    backoff: () => 0,
    ...options,
  } as ReceiverOptions);
}

export function expressApp(receiver: Receiver): express.Express {
  const app = express();
  app.post('/webhooks', receiver.middleware());
  return app;
}

export function post(
  app: express.Express,
  delivery: Pick<SignedDelivery, 'body' | 'headers'>,
  headers: Record<string, string | undefined> = {},
) {
  const req = request(app).post('/webhooks');
  for (const [name, value] of Object.entries({ ...delivery.headers, ...headers }))
    if (value !== undefined) req.set(name, value);
  return req.send(delivery.body);
}

/** Resolves after `ms`; for handlers that must be slow (never used to assert timing). */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
