import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReceiver, type Receiver } from '../../src/receiver/index.js';
import type { DeliveryStore } from '../../src/store/index.js';
import { createPostgresStore } from '../../src/store/postgres/index.js';
import { signedDelivery } from '../../src/testing/index.js';
import { expressApp, post, SECRET, silent } from '../receiver/harness.js';
import { PG_HOW_TO, PG_URL, pgTestSchema } from '../store/pg-schema.js';

describe.skipIf(!PG_URL)(`ctx.transaction on the PostgreSQL store ${PG_HOW_TO}`, () => {
  let schema: ReturnType<typeof pgTestSchema>;
  let pool: pg.Pool;
  let crm: string;
  const stores: DeliveryStore[] = [];
  const receivers: Receiver[] = [];

  beforeEach(async () => {
    schema = pgTestSchema();
    pool = new pg.Pool({ connectionString: PG_URL, max: 8 });
    crm = `"${schema.name}".crm_notes`;
    // The user's own table, in the same database: no unique key, so a second insert would show.
    await pool.query(`CREATE SCHEMA "${schema.name}"`);
    await pool.query(`CREATE TABLE ${crm} (event_id text NOT NULL, note text NOT NULL)`);
  });
  afterEach(async () => {
    for (const r of receivers.splice(0)) await r.close();
    for (const s of stores.splice(0)) await s.close();
    await pool.end();
    await schema.drop();
  });

  function store(): DeliveryStore {
    const s = createPostgresStore({ pool, schema: schema.name });
    stores.push(s);
    return s;
  }

  function receiver(options: Partial<Parameters<typeof createReceiver>[0]> = {}): Receiver {
    const r = createReceiver({
      secret: SECRET,
      store: store(),
      logger: silent,
      pollIntervalMs: 20,
      backoff: () => 0,
      maxAttempts: 4,
      ...options,
    });
    receivers.push(r);
    return r;
  }

  const rows = async (eventId: string) =>
    (await pool.query<{ note: string }>(`SELECT note FROM ${crm} WHERE event_id = $1`, [eventId])).rows.map(
      (r) => r.note,
    );

  async function deliver(r: Receiver, eventId: string) {
    const d = signedDelivery({ secret: SECRET, event: 'ticket.created', overrides: { id: eventId } });
    expect((await post(expressApp(r), d)).status).toBe(200);
    await r.idle();
    return d.deliveryId;
  }

  it('commits the user’s row with the step: a retry after a later failure neither runs it nor writes again', async () => {
    const r = receiver();
    const got: unknown[] = [];
    r.on('ticket.created', async ({ transaction, eventId, attempt }) => {
      got.push(
        await transaction('crm-note', async (sql) => {
          await sql.query(`INSERT INTO ${crm} (event_id, note) VALUES ($1, $2)`, [eventId, `attempt ${attempt}`]);
          return { note: `attempt ${attempt}` };
        }),
      );
      if (attempt === 1) throw new Error('after the transaction');
    });
    await r.start();
    const deliveryId = await deliver(r, 'evt_tx_1');
    expect(await rows('evt_tx_1')).toEqual(['attempt 1']);
    expect(got).toEqual([{ note: 'attempt 1' }, { note: 'attempt 1' }]);
    expect(await r.store.deliverySteps(deliveryId)).toMatchObject([
      { name: 'crm-note', outcome: 'done', attempt: 1, result: '{"note":"attempt 1"}' },
    ]);
  });

  it('rolls the user’s writes back when fn throws, keeps the failure, and runs it again next attempt', async () => {
    const r = receiver();
    r.on('ticket.created', async ({ transaction, eventId, attempt }) => {
      await transaction('crm-note', async (sql) => {
        await sql.query(`INSERT INTO ${crm} (event_id, note) VALUES ($1, $2)`, [eventId, `attempt ${attempt}`]);
        if (attempt === 1) throw new Error('CRM rule refused it');
      });
    });
    await r.start();
    const deliveryId = await deliver(r, 'evt_tx_2');
    expect(await rows('evt_tx_2')).toEqual(['attempt 2']);
    expect((await r.store.attempts(deliveryId)).map((a) => a.error)).toEqual([
      expect.stringContaining('CRM rule refused it'),
      null,
    ]);
  });

  it('refuses to count a transaction a failed statement aborted (COMMIT answers ROLLBACK) as done', async () => {
    const r = receiver({ maxAttempts: 1 });
    r.on('ticket.created', async ({ transaction, eventId }) => {
      await transaction('crm-note', async (sql) => {
        await sql.query(`INSERT INTO ${crm} (event_id, note) VALUES ($1, 'kept?')`, [eventId]);
        await sql.query('SELECT * FROM no_such_table').catch(() => undefined);
      });
    });
    await r.start();
    const deliveryId = await deliver(r, 'evt_tx_3');
    expect(await rows('evt_tx_3')).toEqual([]);
    expect((await r.store.get(deliveryId))!.lastError).toMatch(
      /transaction of step "crm-note" was rolled back: a statement in it failed/,
    );
    expect(await r.store.deliverySteps(deliveryId)).toMatchObject([{ outcome: 'failed' }]);
  });

  it('two processes running one step at once: one commits, the other waits, rolls back and gets its result', async () => {
    const [a, b] = [store(), store()];
    await a.record({
      id: 'dlv_race',
      eventId: 'evt_race',
      event: 'ticket.created',
      body: Buffer.from('{"id":"evt_race","event":"ticket.created","data":{}}'),
      signature: 'sha256=x',
      timestamp: '1',
      receivedAt: Date.now(),
    });
    const run = (s: DeliveryStore, who: string) =>
      s.stepTransaction!(
        { eventKey: 'evt_race', name: 'crm-note', deliveryId: 'dlv_race', attempt: 1, startedAt: Date.now() },
        async (sql) => {
          await sql.query(`INSERT INTO ${crm} (event_id, note) VALUES ('evt_race', $1)`, [who]);
          return { result: JSON.stringify(who), finishedAt: Date.now() };
        },
      );
    const answers = await Promise.all([run(a, 'a'), run(b, 'b')]);
    const notes = await rows('evt_race');
    expect(notes).toHaveLength(1);
    expect(answers.map((x) => x.result)).toEqual([JSON.stringify(notes[0]), JSON.stringify(notes[0])]);
  });
});
