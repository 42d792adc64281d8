import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmulator, emulatorPost } from 'convo-kit/emulator';
import { type AppConfig } from '../src/app-config.js';
import { ROUTING_EVENTS } from '../src/routing-handlers.js';
import { startTicketRouting, type TicketRoutingApp } from '../src/ticket-routing-app.js';

export const RULES_PATH = fileURLToPath(new URL('../routing-rules.json', import.meta.url));
/** A Wednesday, 10:00 UTC: inside the shipped business hours, whatever the time the tests run. */
export const WEDNESDAY_MORNING = new Date('2026-11-18T10:00:00Z');

/** The emulator in this process and the routing app on a free port, subscribed to ticket events unless told not to. */
export interface Harness {
  app: TicketRoutingApp;
  control<T = unknown>(path: string, body: unknown): Promise<T>;
  /** Waits until the emulator has delivered everything due and the app has run every handler. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

const SETTLE_ROUNDS = 4; // routing's own PATCHes raise ticket events, delivered in the next round

/** `inspectorToken`: as INSPECTOR_TOKEN would set it. */
export async function startHarness(
  options: { subscribe?: boolean; now?: () => Date; inspectorToken?: string } = {},
): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'ticket-routing-test-'));
  const emulator = await createEmulator({});
  const server = await emulator.listen(0);
  const post = emulatorPost(server.url, emulator.adminKey);
  let secret = '';
  const config: AppConfig = {
    baseUrl: server.url,
    apiKey: emulator.adminKey,
    webhookSecret: 'set after registration',
    port: 0,
    rulesPath: RULES_PATH,
    deliveriesDbPath: join(dir, 'deliveries.db'),
    inspectorToken: options.inspectorToken,
  };
  const app = await startTicketRouting(config, {
    secrets: () => secret,
    now: options.now ?? (() => WEDNESDAY_MORNING),
  });
  if (options.subscribe !== false) {
    ({ secret } = await post<{ secret: string }>('/v1/webhooks', {
      url: app.webhookUrl,
      events: [...ROUTING_EVENTS],
      description: 'ticket-routing tests',
    }));
  }
  return {
    app,
    control: <T>(path: string, body: unknown) => post<T>(`/_emulator/${path}`, body),
    async settle() {
      for (let round = 0; round < SETTLE_ROUNDS; round += 1) {
        await emulator.dispatcher.idle();
        await app.receiver.idle();
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
