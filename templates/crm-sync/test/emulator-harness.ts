import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'convo-kit/client';
import { createEmulator } from 'convo-kit/emulator';
import { type AppConfig } from '../src/app-config.js';
import { CRM_EVENTS } from '../src/sync-handlers.js';
import { type CrmSyncApp, startCrmSync } from '../src/crm-sync-app.js';

/** The emulator in this process, the CRM app on a free port, and the webhook registered between them. */
export interface Harness {
  app: CrmSyncApp;
  dir: string;
  config: AppConfig;
  /** The webhook's `whsec_` secret, to sign deliveries of our own. */
  secret: string;
  /** Plays the customer or the provider through `/_emulator/*`. */
  control<T = unknown>(path: string, body: unknown): Promise<T>;
  /** Waits until the emulator has delivered everything due and the app has run every handler. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

const SETTLE_ROUNDS = 4; // a handler's own API writes raise events of their own, delivered in the next round

export async function startHarness(): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'crm-sync-test-'));
  const emulator = createEmulator({});
  const server = await emulator.listen(0);
  let secret = '';
  const config: AppConfig = {
    baseUrl: server.url,
    apiKey: emulator.adminKey,
    webhookSecret: 'set after registration',
    port: 0,
    crmDbPath: join(dir, 'crm.db'),
    deliveriesDbPath: join(dir, 'deliveries.db'),
  };
  const app = await startCrmSync(config, { secrets: () => secret });
  const client = createClient({ apiKey: emulator.adminKey, baseUrl: server.url });
  ({ secret } = await client.webhooks.create({ url: app.webhookUrl, events: [...CRM_EVENTS], description: 'crm-sync tests' }));
  return {
    app,
    dir,
    config,
    secret,
    async control<T>(path: string, body: unknown): Promise<T> {
      const response = await fetch(`${server.url}/_emulator/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emulator.adminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await response.json()) as T;
      if (!response.ok) throw new Error(`/_emulator/${path} answered ${response.status}: ${JSON.stringify(json)}`);
      return json;
    },
    async settle() {
      for (let round = 0; round < SETTLE_ROUNDS; round += 1) {
        await emulator.dispatcher.idle();
        await app.receiver.idle();
      }
    },
    async close() {
      await app.close();
      await server.close();
      await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
