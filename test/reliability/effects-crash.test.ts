import Database from 'better-sqlite3';
import pg from 'pg';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ResponseMeta } from '../../src/client/index.js';
import { createSqliteStore, type DeliveryStore } from '../../src/store/index.js';
import { createPostgresStore } from '../../src/store/postgres/index.js';
import { signedDelivery, type SignedDelivery } from '../../src/testing/index.js';
import { CliProcess, killAllCli } from '../cli/run-cli.js';
import { emulatorServer, OPEN_CONVERSATION, type EmulatorServer } from '../effects/emulator-server.js';
import { SECRET } from '../receiver/harness.js';
import { PG_HOW_TO, PG_URL, pgTestSchema } from '../store/pg-schema.js';
import { CRASH_POINTS, type CrashPoint } from './crash-points.js';

const CHILD = fileURLToPath(new URL('./fixtures/effects-child.ts', import.meta.url));
/** Events per crash point; each is delivered twice, under two delivery ids (to two receivers where there are two). */
const EVENTS_PER_POINT = 2;
const WAIT_MS = 120_000;
/** A child start per crash point and receiver, on a loaded machine. */
const SCENARIO_MS = 900_000;

let emulator: EmulatorServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await killAllCli();
  await emulator?.close();
  emulator = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Inbox {
  kind: 'sqlite' | 'postgres';
  /** The SQLite file or the PostgreSQL schema. */
  where: string;
  env: Record<string, string>;
  /** A handle of the test's own on the inbox, to wait on and to read the journal. */
  store: DeliveryStore;
  /** CRM rows per event id. */
  crmRows(): Promise<Map<string, number>>;
}

async function startChild(inbox: Inbox, name: string, crashAt?: CrashPoint): Promise<{ cli: CliProcess; url: string }> {
  const cli = new CliProcess([inbox.where], {
    script: CHILD,
    timeoutMs: 400_000,
    env: {
      ...inbox.env,
      INBOX_KIND: inbox.kind,
      EMULATOR_URL: emulator!.baseUrl,
      API_KEY: emulator!.emulator.adminKey,
      CONVERSATION: OPEN_CONVERSATION,
      CRASH_AT: crashAt,
      CRASH_MARK: join(dir!, `mark-${name}-${crashAt}`),
    },
  });
  const [, port] = await cli.waitFor(/^port (\d+)$/m, 60_000);
  return { cli, url: `http://127.0.0.1:${port}/webhooks` };
}

/** Posts each delivery not yet acked to `url`; a refused or cut-off one stays for the next process (the service's retry). */
async function postPending(url: string, pending: Set<SignedDelivery>): Promise<void> {
  for (const d of [...pending]) {
    const answer = await fetch(url, { method: 'POST', headers: d.headers, body: d.body }).catch(() => undefined);
    if (answer?.status === 200) pending.delete(d);
  }
}

/**
 * Runs one scenario: per crash point, fresh events, and `receivers` processes that each SIGKILL themselves
 * at that point (the deliveries they leave are finished by the next ones); then processes that do not crash
 * finish everything. Asserts one reply and one second message per event at the emulator, one CRM row per
 * event, and that the service replayed sends whose journal entry a kill lost.
 */
async function crashEverywhere(inbox: Inbox, points: readonly CrashPoint[], receivers: number): Promise<void> {
  const eventIds: string[] = [];
  // Delivery ids per receiver: the same event reaches each of them under an id of its own, as a duplicate.
  const pending = Array.from({ length: receivers }, () => new Set<SignedDelivery>());
  for (const point of [...points, undefined]) {
    for (let i = 0; point && i < EVENTS_PER_POINT; i++) {
      const eventId = `evt_${point.replace(/-/g, '_')}_${i}`;
      eventIds.push(eventId);
      for (const set of pending)
        for (let copy = 0; copy < 2; copy++)
          set.add(signedDelivery({ secret: SECRET, event: 'message.received', overrides: { id: eventId } }));
    }
    const children = await Promise.all(Array.from({ length: receivers }, (_, r) => startChild(inbox, `r${r}`, point)));
    await Promise.all(children.map((c, r) => postPending(c.url, pending[r]!)));
    if (point) {
      const ends = await Promise.all(children.map((c) => withTimeout(c.cli.exited, `a crash at ${point}`)));
      for (const end of ends) {
        expect(end.signal, `${point}: ${end.stderr}`).toBe('SIGKILL');
        expect(end.stdout).toContain(`crash ${point}`);
      }
      continue;
    }
    // No crash: every delivery of every event ends done.
    await expect
      .poll(async () => (await inbox.store.list({ limit: 500 })).data.filter((d) => d.status !== 'done').length, {
        timeout: WAIT_MS,
        interval: 200,
      })
      .toBe(0);
    for (const c of children) await c.cli.kill();
  }
  expect((await inbox.store.list({ limit: 500 })).data).toHaveLength(eventIds.length);
  const crm = await inbox.crmRows();
  for (const eventId of eventIds) {
    expect(await emulator!.messages(`reply ${eventId}`), eventId).toHaveLength(1);
    expect(await emulator!.messages(`second ${eventId}`), eventId).toHaveLength(1);
    expect(crm.get(eventId), eventId).toBe(1);
  }
  // The kills after the service took a send: the next attempt sent again, under the same key, and was answered as a replay.
  const replayed: string[] = [];
  for (const d of (await inbox.store.list({ limit: 500 })).data) {
    for (const step of await inbox.store.deliverySteps(d.id)) {
      const meta = (JSON.parse(step.result ?? 'null') as { response?: ResponseMeta } | null)?.response;
      if (meta?.idempotentReplayed) replayed.push(step.name);
    }
  }
  expect(replayed).toEqual(expect.arrayContaining(['conversations.sendMessage:1', 'messages.send:1']));
}

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no ${what} within ${WAIT_MS} ms`)), WAIT_MS);
    }),
  ]);
}

describe('effects survive SIGKILL at every point: one message and one CRM row per event', () => {
  it(
    'one receiver process on SQLite, ctx.client and ctx.step',
    async () => {
      emulator = await emulatorServer();
      dir = mkdtempSync(join(tmpdir(), 'convo-kit-effects-'));
      const path = join(dir, 'inbox.db');
      const crmPath = join(dir, 'crm.db');
      const store = createSqliteStore({ path });
      try {
        await crashEverywhere(
          {
            kind: 'sqlite',
            where: path,
            env: { CRM_DB: crmPath },
            store,
            async crmRows() {
              const db = new Database(crmPath, { readonly: true });
              const rows = db.prepare('SELECT event_id, count(*) AS n FROM crm_notes GROUP BY event_id').all() as {
                event_id: string;
                n: number;
              }[];
              db.close();
              return new Map(rows.map((r) => [r.event_id, r.n]));
            },
          },
          CRASH_POINTS.filter((p) => p !== 'in-crm'),
          1,
        );
      } finally {
        await store.close();
      }
    },
    SCENARIO_MS,
  );

  it.skipIf(!PG_URL)(
    `two receiver processes on one PostgreSQL database, ctx.client and ctx.transaction ${PG_HOW_TO}`,
    async () => {
      emulator = await emulatorServer();
      dir = mkdtempSync(join(tmpdir(), 'convo-kit-effects-'));
      const schema = pgTestSchema();
      const pool = new pg.Pool({ connectionString: PG_URL, max: 2 });
      await pool.query(`CREATE SCHEMA "${schema.name}"`);
      await pool.query(`CREATE TABLE "${schema.name}".crm_notes (event_id text NOT NULL, note text NOT NULL)`);
      const store = createPostgresStore({ pool, schema: schema.name });
      try {
        await crashEverywhere(
          {
            kind: 'postgres',
            where: schema.name,
            env: { CONVO_KIT_PG_URL: PG_URL! },
            store,
            async crmRows() {
              const { rows } = await pool.query<{ event_id: string; n: number }>(
                `SELECT event_id, count(*)::int AS n FROM "${schema.name}".crm_notes GROUP BY event_id`,
              );
              return new Map(rows.map((r) => [r.event_id, r.n]));
            },
          },
          CRASH_POINTS,
          2,
        );
      } finally {
        await store.close();
        await pool.end();
        await schema.drop();
      }
    },
    SCENARIO_MS,
  );
});
