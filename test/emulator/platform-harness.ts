import type { LookupAddress } from 'node:dns';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import request from 'supertest';
import { createEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';

/** Emulators and servers a suite started, closed after each test. */
const cleanups: (() => Promise<void> | void)[] = [];

export async function cleanup(): Promise<void> {
  while (cleanups.length > 0) await cleanups.pop()!();
}

export const silent = pino({ level: 'silent' });

/** A real emulator (in-memory SQLite unless `dbPath`), checking every answer against the contract. */
export async function emulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const e = await createEmulator({ logger: silent, checkResponses: true, seed: 4, ...options });
  cleanups.push(() => e.close());
  return e;
}

/** A real clock stopped at a fixed instant, 30 s into a minute: only /_emulator/clock (or clock.advance) moves it. */
export const frozen = (): number => FROZEN_AT;
const FROZEN_AT = Date.now() - (Date.now() % 60_000) + 30_000;

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'convo-kit-platform-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** supertest with a bearer key. */
export function as(e: Emulator, key: string = e.adminKey) {
  const agent = request(e.app);
  const auth = { Authorization: `Bearer ${key}` };
  return {
    get: (path: string) => agent.get(path).set(auth),
    post: (path: string) => agent.post(path).set(auth),
    patch: (path: string) => agent.patch(path).set(auth),
    put: (path: string) => agent.put(path).set(auth),
    delete: (path: string) => agent.delete(path).set(auth),
  };
}

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on a real port: records every POST and answers what `answer` says (or never). */
export async function receiver(
  answer: (n: number) => number | 'hang' = () => 200,
): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = answer(received.length);
      if (status !== 'hang') res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received, server };
}

/** Fills `:param` segments with `value`. */
export function concretePath(path: string, value = 'x_1'): string {
  return path.replace(/:[a-z_]+/g, value);
}

/** A resolver stub: names answer what the test says, in turn; nothing is asked of real DNS. */
export function stubResolver(answers: Record<string, string[]>): { resolve: LookupFunction; asked: string[] } {
  const asked: string[] = [];
  const resolve = ((hostname: string, _options: unknown, callback: (e: Error | null, a: LookupAddress[]) => void) => {
    asked.push(hostname);
    const list = answers[hostname];
    const address = list && (list.length > 1 ? list.shift()! : list[0]);
    if (!address)
      return callback(Object.assign(new Error(`stub: no answer for ${hostname}`), { code: 'ENOTFOUND' }), []);
    callback(null, [{ address, family: address.includes(':') ? 6 : 4 }]);
  }) as unknown as LookupFunction;
  return { resolve, asked };
}
