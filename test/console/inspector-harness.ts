import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { expect } from 'vitest';
import { createReceiver, INSPECTOR_PATH, type InspectorOptions, type Receiver } from '../../src/receiver/index.js';
import { signedDelivery } from '../../src/testing/index.js';
import { silent } from '../receiver/harness.js';

export const SECRET = `whsec_${'k'.repeat(32)}`;

/**
 * A receiver whose ticket handler fails until it is "fixed", in an Express app with the inspector mounted.
 * `before` runs first on every request (an app's own middleware, such as a permissive CORS one); `inspector`
 * is the inspector's options (its token).
 */
export function setup(before?: express.RequestHandler, inspector: InspectorOptions = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'inspector-'));
  const state = { fixed: false, handled: [] as string[] };
  const receiver = createReceiver({ secret: SECRET, dbPath: join(dir, 'inbox.db'), maxAttempts: 1, logger: silent });
  receiver.on('ticket.created', async ({ data, step }) => {
    // A journaled step before the failure, for the detail's Steps.
    await step('crm-lookup', () => ({ ticket: data.id }));
    if (!state.fixed) throw new Error('the CRM was down');
    state.handled.push(data.id);
  });
  const app = express();
  if (before) app.use(before);
  app.post('/webhooks', receiver.middleware());
  app.use(INSPECTOR_PATH, receiver.inspector(inspector));
  return { dir, state, receiver, app };
}

/** One ticket.created through the app, its handlers run; `done` gives it an event of its own that no handler fails. */
export async function deliver(
  app: express.Express,
  receiver: Receiver,
  overrides: object = {},
  done = false,
): Promise<string> {
  const { body, headers, deliveryId } = done
    ? signedDelivery({ secret: SECRET, event: 'contact.updated' })
    : signedDelivery({ secret: SECRET, event: 'ticket.created', overrides });
  await request(app).post('/webhooks').set(headers).send(body).expect(200);
  await receiver.idle();
  return deliveryId;
}

/** The app listening on 127.0.0.1, for a browser; `close` also closes the receiver and removes its files. */
export async function listening(s: ReturnType<typeof setup>): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = await new Promise((resolve) => {
    const srv = s.app.listen(0, '127.0.0.1', () => resolve(srv));
  });
  return {
    port: (server.address() as { port: number }).port,
    async close() {
      server.close();
      await teardown(s);
    },
  };
}

export async function teardown(s: ReturnType<typeof setup>): Promise<void> {
  await s.receiver.close();
  rmSync(s.dir, { recursive: true, force: true });
}

/** Waits for the page's own refresh (every two seconds) to have run `times` more times. */
export async function refreshes(page: Page, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const before = await page.locator('#live').textContent();
    await expect.poll(() => page.locator('#live').textContent(), { timeout: 10_000 }).not.toBe(before);
  }
}
