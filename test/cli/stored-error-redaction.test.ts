import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReceiver, INSPECTOR_PATH, type Receiver } from '../../src/receiver/index.js';
import { createSqliteStore } from '../../src/store/index.js';
import { silent } from '../receiver/harness.js';
import { recordSigned, tempDir } from './helpers.js';
import { killAllCli, runCli } from './run-cli.js';

const SECRET = 'whsec_stored_error_test_secret_0123';
const KEY = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';
/** What an earlier version (or another program on the same store) kept: the handler's error whole. */
const PASSWORD = 'hunter2-db-password';
const RAW = `A handler for ticket.created threw: fetch failed: https://api.example/x?api_key=${KEY} (db postgres://app:${PASSWORD}@db.internal:5432/crm)`;
const SHOWN =
  'A handler for ticket.created threw: fetch failed: https://api.example/x?api_key=[redacted] (db postgres://app:[redacted]@db.internal:5432/crm)';

const dir = tempDir('stored-error-redaction');
const db = dir.file('deliveries.db');

beforeAll(async () => {
  const store = createSqliteStore({ path: db });
  await recordSigned(store, { id: 'dlv_raw_error', event: 'ticket.created', secret: SECRET, receivedAt: Date.now() });
  for (const dead of [false, true]) {
    const [claimed] = await store.claim({ limit: 1, leaseMs: 60_000, owner: 'old-version', now: Date.now() + 1 });
    await store.fail(claimed!.id, 'old-version', dead ? { error: RAW, dead } : { error: RAW, retryAt: Date.now() });
  }
  expect((await store.get('dlv_raw_error'))?.lastError).toBe(RAW);
  await store.close();
});

afterAll(async () => {
  await killAllCli();
  dir.remove();
});

describe('an error stored whole before errors were redacted', () => {
  it.each([
    [['deliveries', 'list', '--json']],
    [['deliveries', 'show', 'dlv_raw_error']],
    [['deliveries', 'show', 'dlv_raw_error', '--json']],
  ])('convo-kit %j prints it without the credential', async (args) => {
    const result = await runCli([...args, '--db', db]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(SHOWN);
    expect(result.stdout).not.toContain(KEY);
    expect(result.stdout).not.toContain(PASSWORD);
  });

  it('the delivery inspector shows it, in the list and in each attempt, without the credential', async () => {
    const receiver: Receiver = createReceiver({ secret: SECRET, dbPath: db, logger: silent });
    try {
      const app = express().use(INSPECTOR_PATH, receiver.inspector());
      const list = await request(app).get(`${INSPECTOR_PATH}/api/deliveries`).expect(200);
      const one = await request(app).get(`${INSPECTOR_PATH}/api/deliveries/dlv_raw_error`).expect(200);
      expect(list.body.data[0].last_error).toBe(SHOWN);
      expect(one.body.attempts.map((a: { error: string }) => a.error)).toEqual([SHOWN, SHOWN]);
      expect(list.text + one.text).not.toContain(KEY);
      expect(list.text + one.text).not.toContain(PASSWORD);
    } finally {
      await receiver.close();
    }
  });
});
