import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createClient, type ApiPromise, type Client, type ClientOptions } from '../../src/client/index.js';
import { createEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';

/** One emulator on a real port, and clients of it; everything a test talks to goes over HTTP. */
export interface E2e {
  emulator: Emulator;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** A client with the emulator's admin key (every scope), validating every response against the contract. */
  client: Client;
  /** A client with the emulator's test key (`svc_test_`). */
  testClient: Client;
  clientFor(apiKey: string, options?: Omit<ClientOptions, 'apiKey'>): Client;
  /** POST /_emulator/<path> with the admin key: plays the customer, the provider or time (docs/emulator.md). */
  control(path: string, body: object): Promise<Record<string, unknown>>;
  /** A raw call with the admin key, for inputs the typed client refuses before sending (loopback URLs, bad bodies). */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  /** A local receiver registered as a webhook endpoint (by raw HTTP: the contract allows only public URLs). */
  loopbackWebhook(events: string[]): Promise<{ id: string; secret: string; received: () => number }>;
  close(): Promise<void>;
}

export interface E2eOptions extends Omit<EmulatorOptions, 'dbPath' | 'logger'> {
  /** Keep state in an SQLite file in a temp dir (removed on close) instead of memory. @default false */
  fileDb?: boolean;
}

/** Starts an in-process emulator on listen(0) and the clients of it. Call close() in afterAll. */
export async function startE2e(options: E2eOptions = {}): Promise<E2e> {
  const { fileDb = false, ...emulatorOptions } = options;
  const dir = fileDb ? mkdtempSync(join(tmpdir(), 'convo-kit-e2e-')) : undefined;
  const emulator = await createEmulator({
    ...emulatorOptions,
    dbPath: dir ? join(dir, 'emulator.db') : undefined,
    logger: pino({ level: 'silent' }),
  });
  const { url: origin } = await emulator.listen(0);
  const closers: (() => Promise<void>)[] = [];
  // backoffBaseMs 1: a retry the client decides on never makes the suite wait.
  const clientFor = (apiKey: string, more: Omit<ClientOptions, 'apiKey'> = {}) =>
    createClient({ apiKey, baseUrl: `${origin}/v1`, backoffBaseMs: 1, ...more });

  const control = async (path: string, body: object) => {
    const res = await fetch(`${origin}/_emulator/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emulator.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`/_emulator/${path} answered ${res.status}: ${JSON.stringify(answer)}`);
    return answer;
  };

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${emulator.adminKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  };

  const loopbackWebhook = async (events: string[]) => {
    let count = 0;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        count++;
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const res = await fetch(`${origin}/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emulator.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
        events,
        description: 'e2e receiver',
      }),
    });
    const created = (await res.json()) as { id: string; secret: string };
    if (res.status !== 201) throw new Error(`webhook registration answered ${res.status}: ${JSON.stringify(created)}`);
    return { id: created.id, secret: created.secret, received: () => count };
  };

  return {
    emulator,
    origin,
    client: clientFor(emulator.adminKey),
    testClient: clientFor(emulator.testKey),
    clientFor,
    control,
    api,
    loopbackWebhook,
    async close() {
      await emulator.close();
      for (const close of closers) await close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The first item of an iteration that matches, or an error naming what was looked for. */
export async function findFirst<T>(
  items: AsyncIterable<T>,
  what: string,
  match: (item: T) => boolean = () => true,
): Promise<T> {
  for await (const item of items) if (match(item)) return item;
  throw new Error(`the seeded workspace has no ${what}`);
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(promise: PromiseLike<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, but it resolved');
}

/** A route's client method by group and name, for loops over the table (typed calls name the method directly). */
export function methodOf(client: Client, group: string, name: string): (input: object) => ApiPromise<unknown> {
  const method = (
    client as unknown as Record<
      string,
      Record<string, ((input: object) => ApiPromise<unknown>) | undefined> | undefined
    >
  )[group]?.[name];
  if (!method) throw new Error(`the client has no method ${group}.${name}`);
  return method;
}
