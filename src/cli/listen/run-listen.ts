import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { pino } from 'pino';
import {
  createReceiver,
  INSPECTOR_PATH,
  mountAt,
  type HeaderInput,
  type Receiver,
  type ReceiverResponse,
} from '../../receiver/index.js';
import { headerValue } from '../../internal/header-value.js';
import { answerParserRefusals, endpointParserAnswer } from '../../internal/parser-refusals.js';
import { DELIVERY_HEADER, EVENT_HEADER } from '../../signature/index.js';
import type { DeliveryStore } from '../../store/index.js';
import { CliError } from '../cli-error.js';
import { requireDbDirectory } from '../db-directory.js';
import { inboxLocation, storeAt } from '../deliveries/inbox-location.js';
import { POSTGRES_HINT } from '../deliveries/open-store.js';
import { MissingPackageError } from '../../internal/optional-package.js';
import { err } from '../output.js';
import { interrupted } from '../shutdown.js';
import { createDeliveryLog, type LogEntry } from './delivery-log.js';
import { forwarder } from './forwarder.js';

export interface ListenOptions {
  port: number;
  host: string;
  path: string;
  secret: string;
  db: string;
  forwardTo?: string;
  maxAttempts: number;
  retryDelay: number;
  forwardTimeout: number;
  tolerance: number;
  json?: boolean;
}

/** Retries double from --retry-delay up to this, so a long outage of the app is retried about once a minute. */
const MAX_RETRY_DELAY_MS = 60_000;

function headerText(headers: HeaderInput, name: string): string | undefined {
  const value = headerValue(headers, name);
  return value !== undefined && value.length <= 200 ? value : undefined;
}

/** The printed line for one answer of the receiver (see `onResponse` below). */
function entryFor(response: ReceiverResponse, headers: HeaderInput): LogEntry {
  const event = headerText(headers, EVENT_HEADER);
  const deliveryId = headerText(headers, DELIVERY_HEADER);
  if ('error' in response.body) {
    return {
      event,
      deliveryId,
      outcome: 'rejected',
      status: response.status,
      detail: `${response.body.error.code}: ${response.body.error.message}`,
    };
  }
  return { event, deliveryId, outcome: response.body.duplicate ? 'duplicate' : 'stored', status: response.status };
}

/**
 * A node:http server: the inspector, then the receiver's own listener at `path`, so listen refuses what
 * the headers decide before reading a body and bounds the bodies in flight exactly as a receiver does
 * (README "What the receiver answers"); each answer is printed through the receiver's `onResponse`.
 */
function createListenServer(receiver: Receiver, path: string, log: (entry: LogEntry) => void): Server {
  const inspector = mountAt(INSPECTOR_PATH, receiver.inspector());
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (inspector(req, res)) return;
    if (new URL(req.url ?? '/', 'http://localhost').pathname === path) return receiver.listener(req, res);
    req.resume();
    res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ error: { code: 'NOT_FOUND', message: `Deliveries are received at POST ${path}` } }));
  });
  // What Node's parser refuses never reaches the receiver: answered in its envelope, and printed like its refusals.
  answerParserRefusals(server, endpointParserAnswer, (answer) =>
    log({
      event: undefined,
      deliveryId: undefined,
      outcome: 'rejected',
      status: answer.status,
      detail: `${answer.body.error.code}: ${answer.body.error.message}`,
    }),
  );
  return server;
}

function listenOn(server: Server, port: number, host: string): Promise<number> {
  return new Promise((done, fail) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE')
        fail(
          new CliError('FAILED', `Port ${port} on ${host} is already in use.`, {
            hint: 'Pick another port with --port (0 picks a free one), or stop what runs there.',
          }),
        );
      else
        fail(
          new CliError('FAILED', `Cannot listen on ${host}:${port}: ${error.message}`, {
            hint: 'Check --host (an address or name of this machine; 0.0.0.0 for every one) and --port.',
            cause: error,
          }),
        );
    });
    server.listen(port, host, () => done((server.address() as { port: number }).port));
  });
}

export async function runListen(options: ListenOptions): Promise<void> {
  const location = inboxLocation(options.db);
  if (location.kind === 'sqlite') requireDbDirectory(location.path);
  const log = createDeliveryLog(Boolean(options.json));
  // The receiver's own logs go to stderr, silent unless LOG_LEVEL asks: the delivery lines say what happened.
  const logger = pino({ name: 'convo-kit-listen', level: process.env.LOG_LEVEL ?? 'silent' }, pino.destination(2));
  let receiver: Receiver;
  // A SQLite file is opened (and closed) by the receiver; a PostgreSQL store is ours to close.
  let store: DeliveryStore | undefined;
  try {
    if (location.kind === 'postgres') store = await storeAt(location, { existing: false });
    receiver = createReceiver({
      secret: options.secret,
      ...(location.kind === 'postgres' ? { store } : { dbPath: location.path }),
      toleranceSeconds: options.tolerance,
      maxAttempts: options.maxAttempts,
      backoff: { baseMs: options.retryDelay, factor: 2, maxMs: Math.max(options.retryDelay, MAX_RETRY_DELAY_MS) },
      logger,
      onResponse: (response, headers) => log(entryFor(response, headers)),
    });
  } catch (cause) {
    await store?.close();
    throw new CliError('FAILED', `Cannot open the delivery database ${location.shown}: ${(cause as Error).message}`, {
      cause,
      // A missing driver's message already says what to install.
      ...(location.kind === 'postgres' && !(cause instanceof MissingPackageError) && { hint: POSTGRES_HINT }),
    });
  }
  if (options.forwardTo) {
    receiver.on(
      '*',
      forwarder({
        url: options.forwardTo,
        secret: options.secret,
        store: receiver.store,
        timeoutMs: options.forwardTimeout,
        maxAttempts: options.maxAttempts,
        log,
      }),
    );
  }
  // A command that runs as printed: replay needs the same --db and somewhere to send (the secret stays a placeholder).
  const replayTo = options.forwardTo ? `--to ${options.forwardTo} --secret whsec_…` : '--handlers <your module>';
  receiver.onError((error, info) =>
    log({
      event: info.event,
      deliveryId: info.deliveryId,
      outcome: 'dead',
      detail: `${error.message} (replay it with \`convo-kit replay --id ${info.deliveryId} --db ${location.shown} ${replayTo}\`)`,
    }),
  );
  const server = createListenServer(receiver, options.path, log);
  let port: number;
  try {
    port = await listenOn(server, options.port, options.host);
  } catch (error) {
    await receiver.close();
    await store?.close();
    throw error;
  }
  await receiver.start();
  // Listening before the line scripts wait for: a signal right after it would otherwise, now and then, kill
  // the process by the signal's default action instead of closing the receiver.
  const stop = interrupted();
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  err.line(`convo-kit listen: receiving at ${err.c.bold(`http://${host}:${port}${options.path}`)}`);
  err.line(`  deliveries stored in ${location.shown}`);
  const local = ['0.0.0.0', '::'].includes(options.host) ? '127.0.0.1' : host;
  err.line(`  inspector: ${err.c.bold(`http://${local}:${port}${INSPECTOR_PATH}`)} (this machine only)`);
  if (options.forwardTo) err.line(`  forwarding each to ${options.forwardTo}, re-signed with the same secret`);
  err.line(err.c.dim('  Ctrl-C to stop'));

  await stop;
  err.line('stopping: finishing running handlers…');
  server.close();
  server.closeIdleConnections();
  await receiver.close();
  await store?.close();
  server.closeAllConnections();
  err.line('stopped');
}
