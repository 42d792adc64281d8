import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, expect, it } from 'vitest';
import { handlers } from '../../src/emulator/handlers/index.js';
import { LOG_REDACT_PATHS } from '../../src/emulator/index.js';
import type { RouteHandlerTable } from '../../src/emulator/route-handler.js';
import { SEED_IDS } from '../../src/emulator/seed.js';
import { as, cleanup, emulator, receiver } from './platform-harness.js';

afterEach(cleanup);

it('logs a handler crash and failed deliveries without any key, secret or signature', async () => {
  let output = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      output += chunk.toString('utf8');
      done();
    },
  });
  const logger = pino({ level: 'debug', redact: LOG_REDACT_PATHS }, sink);
  const crashing: RouteHandlerTable = {
    ...handlers,
    tickets: {
      ...handlers.tickets,
      list: () => {
        throw new Error('boom');
      },
    },
  };
  const e = await emulator({ logger, handlers: crashing });
  expect((await as(e).get('/v1/tickets')).status).toBe(500);
  const hooks = await receiver(() => 500);
  const created = await as(e)
    .post('/v1/webhooks')
    .send({ url: hooks.url, events: ['*'] });
  expect(
    (await as(e).post('/_emulator/handoff').send({ conversation_id: SEED_IDS.delivered.conversation })).status,
  ).toBeLessThan(300);
  await e.dispatcher.idle();
  expect(hooks.received.length).toBeGreaterThan(0);
  expect(output).toContain('boom');
  expect(output).toContain('webhook attempt failed');
  for (const secret of [
    e.adminKey,
    e.testKey,
    created.body.secret as string,
    String(hooks.received[0]!.headers['x-service-signature']).slice(7),
  ]) {
    expect(output).not.toContain(secret);
  }
});
