// `npm start` (for now): a receiver that prints each verified delivery on one line.
//   npx tsx examples/demo-receiver.ts                     start it (PORT, CONVO_KIT_WEBHOOK_SECRET, CONVO_KIT_DB)
//   npx tsx examples/demo-receiver.ts send <event> [url]   POST a signed sample of <event> to it
import express from 'express';
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { EVENT_NAMES, isEventName } from '../src/events/index.js';
import { createReceiver, type Receiver } from '../src/receiver/index.js';
import { signedDelivery } from '../src/testing/index.js';

const SECRET_ENV = 'CONVO_KIT_WEBHOOK_SECRET';

/** The README's quick start, runnable: the receiver mounted in an Express app, before any body parser. */
export function createDemoApp(options: { secret: string; dbPath: string; print?: (line: string) => void }): {
  app: express.Express;
  receiver: Receiver;
} {
  const print = options.print ?? console.log;
  const receiver = createReceiver({
    secret: options.secret,
    dbPath: options.dbPath,
    logger: pino({ level: process.env.LOG_LEVEL ?? 'warn' }),
  });

  receiver.on('*', ({ event, deliveryId, attempt, data, known }) => {
    const subject = typeof data.id === 'string' ? data.id : '';
    print(
      `${new Date().toISOString().slice(11, 19)}  ${event.padEnd(24)} ${deliveryId}  attempt ${attempt}  ${subject}${known ? '' : '  (unknown event)'}`,
    );
  });
  receiver.onError((error, { deliveryId }) => print(`dead: ${deliveryId}: ${error.code}: ${error.message}`));

  const app = express();
  app.post('/webhooks', receiver.middleware()); // reads the raw bytes itself: mount it before express.json()
  app.use(express.json()); // ...the rest of your app
  app.get('/', (_req, res) => {
    res.type('text').send('convo-kit demo receiver: POST signed deliveries to /webhooks\n');
  });
  return { app, receiver };
}

async function start(): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  const generated = !process.env[SECRET_ENV];
  const secret = process.env[SECRET_ENV] || `whsec_${randomBytes(24).toString('base64url')}`;
  const dbPath = process.env.CONVO_KIT_DB ?? 'convo-kit-demo.db';
  const { app, receiver } = createDemoApp({ secret, dbPath });
  await receiver.start();
  const server = app.listen(port, () => {
    const url = `http://localhost:${port}/webhooks`;
    const secretPart = generated ? `${SECRET_ENV}=${secret} ` : '';
    console.log(`convo-kit demo receiver on ${url} (deliveries kept in ${dbPath})`);
    if (generated) console.log(`webhook secret (generated; set ${SECRET_ENV} to choose one): ${secret}`);
    console.log('\nIn another terminal, send a signed sample delivery:');
    console.log(`  ${secretPart}npx tsx examples/demo-receiver.ts send ticket.created ${url}`);
    console.log(`Any of: ${EVENT_NAMES.join(' ')}\n`);
  });
  const stop = () => {
    server.close();
    void receiver.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function send(
  event: string | undefined,
  url = `http://localhost:${process.env.PORT ?? 3000}/webhooks`,
): Promise<void> {
  const secret = process.env[SECRET_ENV];
  if (!secret) throw new Error(`Set ${SECRET_ENV} to the secret the demo receiver printed`);
  if (!event || !isEventName(event)) throw new Error(`Name an event to send, one of: ${EVENT_NAMES.join(', ')}`);
  const { body, headers, deliveryId } = signedDelivery({ secret, event });
  const res = await fetch(url, { method: 'POST', headers, body }).catch((error: unknown) => {
    // fetch says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND…) is its cause.
    const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    throw new Error(`POST ${url} got no answer (${reason}): is the demo receiver running there?`);
  });
  console.log(`${res.status} ${deliveryId} ${await res.text()}`);
  if (!res.ok) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [command, ...args] = process.argv.slice(2);
  const run = command === 'send' ? send(args[0], args[1]) : start();
  run.catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
