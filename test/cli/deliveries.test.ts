import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/index.js';
import { KEPT_FIELDS, SECRET_FIELDS } from '../support/secret-fields.js';
import { recordBody, recordSigned } from './helpers.js';
import { killAllCli, runCli } from './run-cli.js';

const SECRET = 'whsec_deliveries_test_secret';
const HOUR_MS = 3_600_000;
const dir = mkdtempSync(join(tmpdir(), 'convo-kit-deliveries-'));
const db = join(dir, 'deliveries.db');
const now = Date.now();

/** Three deliveries in three states, stored the way the receiver stores them. */
beforeAll(async () => {
  const store = createSqliteStore({ path: db });
  const add = (id: string, event: string, receivedAt: number) =>
    recordSigned(store, { id, event, secret: SECRET, receivedAt });
  await add('dlv_old_done', 'ticket.created', now - 3 * HOUR_MS);
  await add('dlv_dead_one', 'message.received', now - 2 * HOUR_MS);
  await add('dlv_new_pending', 'ticket.closed', now - 60_000);
  const [done] = await store.claim({ limit: 1, leaseMs: 60_000, owner: 'test', now: now - 3 * HOUR_MS + 1 });
  await store.complete(done!.id, 'test');
  const [dead] = await store.claim({ limit: 1, leaseMs: 60_000, owner: 'test', now: now - 2 * HOUR_MS + 1 });
  await store.fail(dead!.id, 'test', { error: 'CRM answered 500', dead: true });
  // The dead one's handler got one step done, and failed the next (its error quotes a key).
  const step = {
    eventKey: 'evt_dlv_dead_one',
    deliveryId: 'dlv_dead_one',
    attempt: 1,
    startedAt: now,
    finishedAt: now,
  };
  await store.saveStep({ ...step, name: 'messages.send:1', outcome: 'done', result: '{"id":"msg_1"}', error: null });
  await store.saveStep({
    ...step,
    name: 'crm-note',
    outcome: 'failed',
    result: null,
    error: 'Error: CRM answered 500 for https://crm.example/notes?api_key=svc_live_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  });
  await store.close();
});

afterEach(killAllCli);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function listIds(...args: string[]): Promise<string[]> {
  const result = await runCli(['deliveries', 'list', '--db', db, '--json', ...args]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout) as { id: string }[]).map((d) => d.id);
}

describe('convo-kit deliveries list', () => {
  it('lists every delivery newest first as a readable table', async () => {
    const result = await runCli(['deliveries', 'list', '--db', db]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^RECEIVED\s+STATUS\s+EVENT\s+DELIVERY ID\s+ATTEMPTS\s+LAST ERROR$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/)[3])).toEqual(['dlv_new_pending', 'dlv_dead_one', 'dlv_old_done']);
    expect(lines[2]).toMatch(/dead\s+message\.received\s+dlv_dead_one\s+1\s+CRM answered 500/);
    expect(result.stdout).not.toContain(String.fromCharCode(27)); // no colour codes when stdout is not a terminal
  });

  it.each([
    [['--status', 'dead'], ['dlv_dead_one']],
    [
      ['--status', 'done,pending'],
      ['dlv_new_pending', 'dlv_old_done'],
    ],
    [
      ['--status', 'all'],
      ['dlv_new_pending', 'dlv_dead_one', 'dlv_old_done'],
    ],
    [
      ['--event', 'ticket.*'],
      ['dlv_new_pending', 'dlv_old_done'],
    ],
    [['--event', 'message.received'], ['dlv_dead_one']],
    [['--event', 'contact.*'], []],
    [
      ['--since', '150m'],
      ['dlv_new_pending', 'dlv_dead_one'],
    ],
    [
      ['--until', '1h'],
      ['dlv_dead_one', 'dlv_old_done'],
    ],
    [['--since', new Date(now - 150 * 60_000).toISOString(), '--until', '1h'], ['dlv_dead_one']],
  ])('filters with %j', async (args, expected) => {
    expect(await listIds(...args)).toEqual(expected);
  });

  it('bounds the list with --limit and says that more matched', async () => {
    const result = await runCli(['deliveries', 'list', '--db', db, '--limit', '1', '--json']);
    expect((JSON.parse(result.stdout) as unknown[]).length).toBe(1);
    expect(result.stderr).toMatch(/More deliveries match than the 1 shown/);
  });

  it.each([
    [['--status', 'broken'], /--status.*Expected pending, processing, done, failed, dead or all.*`broken`/],
    [['--event', 'ticket'], /--event.*Expected an event name.*`ticket`/],
    [['--since', 'yesterday'], /--since.*Expected a duration ago.*`yesterday`/],
    [['--limit', '0'], /--limit.*Expected a whole number from 1/],
  ])('refuses bad arguments %j with exit 2', async (args, message) => {
    const result = await runCli(['deliveries', 'list', '--db', db, ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('names a missing database and how to create one (exit 3), without creating it', async () => {
    const missing = join(dir, 'nope.db');
    const result = await runCli(['deliveries', 'list', '--db', missing]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`No delivery database at ${missing}`);
    expect(result.stderr).toMatch(/convo-kit listen --db/);
    const again = await runCli(['deliveries', 'list'], { env: { CONVO_KIT_DB: missing } });
    expect(again.code).toBe(3);
  });

  it('refuses a file that is not a delivery database (exit 1)', async () => {
    const notDb = join(dir, 'notes.txt');
    writeFileSync(notDb, 'hello, this is not SQLite '.repeat(100));
    const result = await runCli(['deliveries', 'list', '--db', notDb]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Cannot open .*notes\.txt as a delivery database/);
  });
});

describe('convo-kit deliveries show', () => {
  it('prints headers, payload and attempt history, with the signature redacted', async () => {
    const result = await runCli(['deliveries', 'show', 'dlv_dead_one', '--db', db]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Delivery dlv_dead_one/);
    expect(result.stdout).toMatch(/status\s+dead/);
    expect(result.stdout).toMatch(/X-Service-Event: message\.received/);
    // By its scheme alone: no character of the value.
    expect(result.stdout).toMatch(/X-Service-Signature: sha256=… \(redacted\)$/m);
    expect(result.stdout).toMatch(/"id": "obj_dlv_dead_one"/);
    expect(result.stdout).toMatch(/^\s+1\s+\S+Z\s+\S+Z\s+dead\s+test\s+CRM answered 500$/m);
  });

  it('prints the same as JSON for scripts', async () => {
    const result = await runCli(['deliveries', 'show', 'dlv_old_done', '--db', db, '--json']);
    expect(result.code).toBe(0);
    const shown = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(shown).toMatchObject({
      id: 'dlv_old_done',
      event: 'ticket.created',
      status: 'done',
      payload: { json: { event: 'ticket.created', data: { id: 'obj_dlv_old_done' } } },
      attempts: [{ attempt: 1, outcome: 'done', error: null }],
    });
    expect(JSON.stringify(shown)).not.toMatch(/sha256=[0-9a-f]/);
  });

  it('redacts secret-looking fields and credential-looking values, as the delivery inspector does', async () => {
    const secretDb = join(dir, 'secrets.db');
    const store = createSqliteStore({ path: secretDb });
    await recordBody(
      store,
      { id: 'dlv_with_secrets', secret: SECRET, receivedAt: Date.now() },
      { event: 'ticket.created', data: { metadata: { ...SECRET_FIELDS, ...KEPT_FIELDS } } },
    );
    await store.close();
    const human = await runCli(['deliveries', 'show', 'dlv_with_secrets', '--db', secretDb]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/"private_key": "\[redacted\]"/);
    expect(human.stdout).toMatch(/"plan": "Basic plan"/);
    const json = await runCli(['deliveries', 'show', 'dlv_with_secrets', '--db', secretDb, '--json']);
    const metadata = (JSON.parse(json.stdout) as { payload: { json: { data: { metadata: object } } } }).payload.json
      .data.metadata;
    expect(metadata).toEqual({
      ...Object.fromEntries(Object.keys(SECRET_FIELDS).map((k) => [k, '[redacted]'])),
      ...KEPT_FIELDS,
    });
    // Nor does any other command that prints deliveries show a value.
    const others = await Promise.all(
      [
        ['deliveries', 'list'],
        ['deliveries', 'list', '--json'],
        ['replay', '--status', 'all', '--dry-run'],
        ['replay', '--status', 'all', '--dry-run', '--json'],
      ].map((args) => runCli([...args, '--db', secretDb])),
    );
    for (const result of [human, json, ...others]) {
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('dlv_with_secrets');
      for (const value of Object.values(SECRET_FIELDS)) expect(result.stdout + result.stderr).not.toContain(value);
    }
  });

  it('prints the steps the handlers journaled: name, outcome, when, attempt, result size, error redacted', async () => {
    const human = await runCli(['deliveries', 'show', 'dlv_dead_one', '--db', db]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^Steps/m);
    expect(human.stdout).toMatch(/messages\.send:1\s+done\s+\S+Z\s+1\s+14 B/);
    expect(human.stdout).toMatch(/crm-note\s+failed\s+\S+Z\s+1\s+-\s+Error: CRM answered 500/);
    const json = JSON.parse((await runCli(['deliveries', 'show', 'dlv_dead_one', '--db', db, '--json'])).stdout) as {
      steps: { name: string; outcome: string; result_bytes: number; error: string | null }[];
    };
    expect(json.steps).toMatchObject([
      { name: 'messages.send:1', outcome: 'done', result_bytes: 14, error: null },
      { name: 'crm-note', outcome: 'failed', result_bytes: 0 },
    ]);
    for (const out of [human.stdout, JSON.stringify(json)]) expect(out).not.toContain('aaaaaaaaaaaa');
  });

  it('names an unknown delivery id (exit 3)', async () => {
    const result = await runCli(['deliveries', 'show', 'dlv_nope', '--db', db]);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/No delivery dlv_nope in/);
  });

  it('needs the id argument (exit 2)', async () => {
    const result = await runCli(['deliveries', 'show', '--db', db]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/missing required argument 'id'/);
  });
});
