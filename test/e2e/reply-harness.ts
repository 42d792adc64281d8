import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createReplyEndpoint, type ReplyFunction } from '../../src/reply/index.js';
import type { E2e } from './harness.js';

/** A server on a loopback port; close it with {@link closeServer}. */
export async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Polls `check` until it returns a value (bounded by `timeoutMs`); for webhook deliveries, which arrive off the request. */
export async function until<T>(check: () => T | undefined, what: string, timeoutMs = 5000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    const found = check();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A real convo-kit/reply endpoint on a loopback port, answering with `reply`. */
export function replyEndpoint(secret: string, reply: ReplyFunction): Promise<{ server: Server; url: string }> {
  const endpoint = createReplyEndpoint({ secret, timeoutMs: 3000, logger: pino({ level: 'silent' }), reply });
  return listen(endpoint.listener);
}

export interface RecordedWebhook {
  event: string;
  data: Record<string, unknown>;
}

/** A webhook receiver subscribed to `events`, handing every delivery's body to `record`. */
export async function recordWebhooks(
  t: E2e,
  events: string[],
  record: (body: RecordedWebhook) => void,
): Promise<{ server: Server }> {
  const hooks = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req
      .on('data', (c: Buffer) => chunks.push(c))
      .on('end', () => {
        record(JSON.parse(Buffer.concat(chunks).toString()) as RecordedWebhook);
        res.writeHead(200).end();
      });
  });
  const created = await t.api('POST', '/v1/webhooks', { url: `${hooks.url}/hooks`, events });
  if (created.status !== 201) throw new Error(`webhook registration answered ${created.status}`);
  return { server: hooks.server };
}
