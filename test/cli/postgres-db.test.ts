import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryStore } from '../../src/store/index.js';
import { createPostgresStore } from '../../src/store/postgres/index.js';
import { PG_HOW_TO, PG_URL, pgTestSchema } from '../store/pg-schema.js';
import { recordSigned, startTargetReceiver, tempDir, waitUntil, type TargetReceiver } from './helpers.js';
import { CliProcess, killAllCli, runCli } from './run-cli.js';

const SECRET = 'whsec_postgres_cli_test_secret_0123';

describe.skipIf(!PG_URL)(`--db postgres://… ${PG_HOW_TO}`, () => {
  let schema: ReturnType<typeof pgTestSchema>;
  let db: string;
  let store: DeliveryStore;
  const targets: TargetReceiver[] = [];
  const dirs: ReturnType<typeof tempDir>[] = [];
  beforeEach(() => {
    schema = pgTestSchema();
    db = `${PG_URL}?schema=${schema.name}`;
    store = createPostgresStore({ connectionString: PG_URL, schema: schema.name, poolSize: 2 });
  });
  afterEach(async () => {
    await killAllCli();
    await Promise.all(targets.splice(0).map((t) => t.close()));
    for (const dir of dirs.splice(0)) dir.remove();
    await store.close();
    await schema.drop();
  });

  it('deliveries lists and shows what a PostgreSQL-backed receiver stored', async () => {
    const now = Date.now();
    await recordSigned(store, { id: 'dlv_pg_one', event: 'ticket.created', secret: SECRET, receivedAt: now - 2000 });
    await recordSigned(store, { id: 'dlv_pg_two', event: 'message.received', secret: SECRET, receivedAt: now - 1000 });
    const list = await runCli(['deliveries', 'list', '--db', db, '--json']);
    expect(list.stderr).toBe('');
    expect(list.code).toBe(0);
    expect((JSON.parse(list.stdout) as { id: string }[]).map((d) => d.id)).toEqual(['dlv_pg_two', 'dlv_pg_one']);
    const show = await runCli(['deliveries', 'show', 'dlv_pg_one', '--db', db]);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('ticket.created');
    expect(show.stdout).toContain('evt_dlv_pg_one');
  }, 60_000);

  it('names a database without an inbox (exit 3) and creates nothing there', async () => {
    const empty = pgTestSchema();
    try {
      const result = await runCli(['deliveries', 'list', '--db', `${PG_URL}?schema=${empty.name}`]);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(`No delivery inbox in`);
      expect(result.stderr).toContain('?schema=');
      const probe = createPostgresStore({ connectionString: PG_URL, schema: empty.name, migrate: false });
      await expect(probe.list()).rejects.toThrow(/No convo-kit delivery schema/);
      await probe.close();
    } finally {
      await empty.drop();
    }
  }, 60_000);

  it('says a server cannot be reached (exit 1) and never prints the password', async () => {
    const result = await runCli(['deliveries', 'list', '--db', 'postgres://app:hunter2-secret@127.0.0.1:1/test']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Cannot open postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/test/);
    expect(result.stderr).toMatch(/ECONNREFUSED/);
    expect(result.stderr + result.stdout).not.toContain('hunter2');
    const garbled = await runCli(['deliveries', 'list', '--db', 'postgres://[::1']);
    expect(garbled.code).toBe(2);
  }, 60_000);

  it('deliveries show of a missing id names the database without the password the URL carries', async () => {
    await recordSigned(store, { id: 'dlv_pg_one', event: 'ticket.created', secret: SECRET, receivedAt: Date.now() });
    const withPassword = new URL(db);
    withPassword.password = 'hunter2-in-the-url'; // the test server trusts, so any password opens it
    const result = await runCli(['deliveries', 'show', 'dlv_pg_none', '--db', withPassword.href]);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^error: No delivery dlv_pg_none in postgres:\/\/\w+:\*\*\*@/);
    expect(result.stderr + result.stdout).not.toContain('hunter2');
  }, 60_000);

  it('listen stores into PostgreSQL, and replay --to re-sends from it', async () => {
    const listen = new CliProcess(['listen', '--port', '0', '--secret', SECRET, '--db', db], { timeoutMs: 170_000 });
    const [, url] = await listen.waitFor(/receiving at (http:\/\/\S+)/, 30_000);
    await listen.waitFor(/deliveries stored in postgres:/);
    expect(listen.stderr).toContain(`deliveries stored in ${db}`);
    const sent = await runCli(['trigger', 'ticket.created', '--to', url!, '--secret', SECRET, '--json'], {
      timeoutMs: 60_000,
    });
    expect(sent.code).toBe(0);
    const { delivery_id: id } = JSON.parse(sent.stdout) as { delivery_id: string };
    const row = await waitUntil(
      async () => {
        const found = await store.get(id);
        return found?.status === 'done' ? found : undefined;
      },
      'listen ran the delivery',
      60_000,
    );
    expect(row.event).toBe('ticket.created');

    const dir = tempDir('pg-replay');
    dirs.push(dir);
    const second = await startTargetReceiver({ secret: SECRET, dbPath: dir.file('second.db') });
    targets.push(second);
    const replay = await runCli(['replay', '--db', db, '--id', id, '--to', second.url, '--secret', SECRET]);
    expect(replay.stderr).not.toMatch(/error/i);
    expect(replay.code).toBe(0);
    expect((await second.receiver.store.get(id))?.event).toBe('ticket.created');
    expect((await store.attempts(id)).map((a) => a.outcome)).toEqual(['done', 'done']);
  }, 180_000);
});
