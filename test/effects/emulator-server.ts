import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createClient, type Client } from '../../src/client/index.js';
import { createEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { SEED_IDS } from '../../src/emulator/seed.js';

/** The seeded conversation whose window is open: sends to it are delivered. */
export const OPEN_CONVERSATION = SEED_IDS.delivered.conversation;

/** A real emulator on a real port, and a client of it with its admin key. */
export interface EmulatorServer {
  emulator: Emulator;
  baseUrl: string;
  client: Client;
  /** Messages of a conversation whose content is `content` (of its newest 100). */
  messages(content: string, conversation?: string): Promise<{ id: string; content: string }[]>;
  close(): Promise<void>;
}

export async function emulatorServer(options: EmulatorOptions = {}): Promise<EmulatorServer> {
  const emulator = await createEmulator({ logger: pino({ level: 'silent' }), plan: 'enterprise', ...options });
  const server: Server = createServer(emulator.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = createClient({ apiKey: emulator.adminKey, baseUrl, maxRetries: 0 });
  return {
    emulator,
    baseUrl,
    client,
    async messages(content, conversation = OPEN_CONVERSATION) {
      const page = await client.conversations.listMessages({ id: conversation, limit: 100 });
      return page.data.filter((m) => m.content === content).map((m) => ({ id: m.id, content: m.content }));
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await emulator.close();
    },
  };
}
