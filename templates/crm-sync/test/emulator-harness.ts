import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulator, emulatorPost } from 'convo-kit/emulator';
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
  /** Settles until `condition` holds, for events the emulator raises on its own timers. */
  waitFor(condition: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const SETTLE_ROUNDS = 4; // a handler's own API writes raise events of their own, delivered in the next round

/** `inspectorToken` and `autoReply`: as INSPECTOR_TOKEN and CRM_AUTO_REPLY would set them. */
export async function startHarness(options: { inspectorToken?: string; autoReply?: string } = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'crm-sync-test-'));
  const emulator = await createEmulator({});
  const server = await emulator.listen(0);
  const post = emulatorPost(server.url, emulator.adminKey);
  let secret = '';
  const config: AppConfig = {
    baseUrl: server.url,
    apiKey: emulator.adminKey,
    webhookSecret: 'set after registration',
    port: 0,
    crmDbPath: join(dir, 'crm.db'),
    deliveriesDbPath: join(dir, 'deliveries.db'),
    inspectorToken: options.inspectorToken,
    autoReply: options.autoReply,
  };
  const app = await startCrmSync(config, { secrets: () => secret });
  ({ secret } = await post<{ secret: string }>('/v1/webhooks', {
    url: app.webhookUrl,
    events: [...CRM_EVENTS],
    description: 'crm-sync tests',
  }));
  async function settle(): Promise<void> {
    for (let round = 0; round < SETTLE_ROUNDS; round += 1) {
      await emulator.dispatcher.idle();
      await app.receiver.idle();
    }
  }
  return {
    app,
    dir,
    config,
    secret,
    control: <T>(path: string, body: unknown) => post<T>(`/_emulator/${path}`, body),
    settle,
    async waitFor(condition, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!condition()) {
        if (Date.now() > deadline) throw new Error(`condition still false after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
        await settle();
      }
    },
    async close() {
      // Let the emulator finish what it is delivering first, so no attempt is cut off by the app closing.
      await emulator.dispatcher.idle();
      await app.close();
      await server.close();
      await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
