import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryStore } from '../../src/store/index.js';
import { createPostgresStore } from '../../src/store/postgres/index.js';
import { POSTGRES_MIGRATIONS } from '../../src/store/postgres/postgres-migrations.js';
import { delivery, deliveryStoreContract, LEASE, T0 } from './delivery-store-contract.js';
import { PG_HOW_TO, PG_URL, pgTestSchema } from './pg-schema.js';

describe.skipIf(!PG_URL)(`the DeliveryStore contract, on PostgreSQL ${PG_HOW_TO}`, () => {
  deliveryStoreContract(() => {
    const schema = pgTestSchema();
    return {
      open: (options) =>
        createPostgresStore({ connectionString: PG_URL, schema: schema.name, poolSize: 4, ...options }),
      remove: schema.drop,
    };
  });
});

describe.skipIf(!PG_URL)(`PostgreSQL only ${PG_HOW_TO}`, () => {
  let schema: ReturnType<typeof pgTestSchema>;
  let pool: pg.Pool;
  const stores: DeliveryStore[] = [];
  const open = (options: Partial<Parameters<typeof createPostgresStore>[0]> = {}) => {
    const store = createPostgresStore({ pool, schema: schema.name, ...options });
    stores.push(store);
    return store;
  };
  beforeEach(() => {
    schema = pgTestSchema();
    pool = new pg.Pool({ connectionString: PG_URL, max: 6 });
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    await pool.end();
    await schema.drop();
  });

  it('N stores opening one empty database at once migrate it once', async () => {
    const many = Array.from({ length: 6 }, () => open());
    await Promise.all(many.map((s, i) => s.record(delivery(`dlv_${i}`))));
    const versions = await pool.query(`SELECT version FROM "${schema.name}".convo_kit_schema`);
    expect(versions.rows).toEqual(POSTGRES_MIGRATIONS.map((_, i) => ({ version: i + 1 })));
    expect((await many[0]!.list()).data).toHaveLength(6);
  });

  it('upgrades a version 1 schema: event ids come from the stored bodies, older duplicates keep theirs on the first row', async () => {
    const s = `"${schema.name}"`;
    await pool.query(`CREATE SCHEMA ${s}`);
    await pool.query(POSTGRES_MIGRATIONS[0]!(s));
    await pool.query(`CREATE TABLE ${s}.convo_kit_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
      INSERT INTO ${s}.convo_kit_schema (version) VALUES (1)`);
    const bodies = [
      '{"id":"evt_x","event":"message.received","data":{}}',
      '{"id":"evt_x","event":"message.received","data":{}}',
      'not json',
      '{"id":7,"event":"message.received","data":{}}',
    ];
    for (const [i, text] of bodies.entries()) {
      const { rows } = await pool.query<{ seq: string }>(
        `INSERT INTO ${s}.inbox (id, event, size, signature, timestamp, received_at, status, updated_at)
         VALUES ($1, 'message.received', 1, 's', '1', 1, 'pending', 1) RETURNING seq`,
        [`dlv_${i}`],
      );
      await pool.query(`INSERT INTO ${s}.inbox_bodies (seq, body) VALUES ($1, $2)`, [rows[0]!.seq, Buffer.from(text)]);
    }
    const store = open();
    await expect(store.record(delivery('dlv_new', { eventId: 'evt_x' }))).resolves.toEqual({
      inserted: false,
      id: 'dlv_0',
    });
    const ids = await pool.query(`SELECT id, event_id FROM ${s}.inbox ORDER BY seq`);
    expect(ids.rows).toEqual([
      { id: 'dlv_0', event_id: 'evt_x' },
      { id: 'dlv_1', event_id: null },
      { id: 'dlv_2', event_id: null },
      { id: 'dlv_3', event_id: null },
    ]);
  });

  it('records a turn whose bodies add up to more than one statement carries (32 MiB), every byte kept', async () => {
    const store = open();
    const big = (i: number) => delivery(`dlv_${i}`, { body: Buffer.alloc(1024 * 1024, i) });
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => store.record(big(i))));
    expect(answers.every((a) => a.inserted)).toBe(true);
    for (const i of [0, 31, 32, 39])
      expect(Buffer.from((await store.get(`dlv_${i}`))!.body).equals(big(i).body)).toBe(true);
  }, 120_000); // 40 MiB through the server: seconds when the machine is idle, far more on a loaded one

  it('leaves a pool it was given open on close, and uses the schema it was told', async () => {
    const store = open();
    await store.record(delivery('dlv_1'));
    await store.close();
    const rows = await pool.query(`SELECT id FROM "${schema.name}".inbox`);
    expect(rows.rows).toEqual([{ id: 'dlv_1' }]);
  });

  it('two stores on other schemas share one pool, each recording into its own inbox (prepared statements apart)', async () => {
    const other = pgTestSchema();
    try {
      const single = new pg.Pool({ connectionString: PG_URL, max: 2 });
      const a = createPostgresStore({ pool: single, schema: schema.name });
      const b = createPostgresStore({ pool: single, schema: other.name });
      for (let i = 0; i < 4; i++) {
        expect(await a.record(delivery(`dlv_a${i}`))).toMatchObject({ inserted: true });
        expect(await b.record(delivery(`dlv_b${i}`))).toMatchObject({ inserted: true });
      }
      expect((await a.list()).data.map((d) => d.id).sort()).toEqual(['dlv_a0', 'dlv_a1', 'dlv_a2', 'dlv_a3']);
      expect((await b.list()).data.map((d) => d.id).sort()).toEqual(['dlv_b0', 'dlv_b1', 'dlv_b2', 'dlv_b3']);
      await a.close();
      await b.close();
      await single.end();
    } finally {
      await other.drop();
    }
  });

  it('ends the pool it opened on close', async () => {
    const store = createPostgresStore({ connectionString: PG_URL, schema: schema.name });
    await store.record(delivery('dlv_1'));
    await store.close();
    await expect(store.get('dlv_1')).rejects.toMatchObject({ code: 'STORE_CLOSED' });
  });

  it('wakes a watcher in another process when a delivery is stored there, not for a duplicate', async () => {
    const writer = open();
    const watcher = open();
    await writer.record(delivery('dlv_0'));
    let wakes = 0;
    const stop = watcher.watch!(() => wakes++);
    // The first wake comes once the LISTEN connection is up (rows may have arrived before it).
    await expect.poll(() => wakes).toBeGreaterThan(0);
    const before = wakes;
    await writer.record(delivery('dlv_1'));
    await expect.poll(() => wakes).toBeGreaterThan(before);
    const afterStore = wakes;
    // A duplicate stores nothing and wakes nobody.
    await writer.record(delivery('dlv_1'));
    await writer.claim({ ...LEASE, limit: 5, now: T0 });
    await writer.fail('dlv_1', 'worker-a', { error: 'e', dead: true, now: T0 + 1 });
    await new Promise((r) => setTimeout(r, 300));
    expect(wakes).toBe(afterStore);
    stop();
    await writer.record(delivery('dlv_2'));
    await new Promise((r) => setTimeout(r, 300));
    expect(wakes).toBe(afterStore);
  });

  it('a schema from a newer convo-kit is refused, and `migrate: false` refuses an absent one', async () => {
    await expect(open({ migrate: false }).list()).rejects.toThrow(/No convo-kit delivery schema/);
    await open().list();
    await pool.query(`INSERT INTO "${schema.name}".convo_kit_schema (version) VALUES (99)`);
    await expect(open().list()).rejects.toThrow(/newer than this convo-kit/);
    await expect(open({ migrate: false }).list()).rejects.toThrow(/newer than this convo-kit/);
  });

  it('a server that cannot be reached fails the call (the receiver answers 503), and the next call tries again', async () => {
    const store = createPostgresStore({
      connectionString: 'postgres://postgres@127.0.0.1:1/test',
      schema: schema.name,
    });
    stores.push(store);
    await expect(store.record(delivery('dlv_1'))).rejects.toThrow(/ECONNREFUSED/);
    await expect(store.list()).rejects.toThrow(/ECONNREFUSED/);
  });

  it('refuses bad options with the option named', () => {
    expect(() => createPostgresStore({} as never)).toThrow(/`connectionString`/);
    expect(() => createPostgresStore({ connectionString: PG_URL, pool })).toThrow(/exactly one/);
    expect(() => createPostgresStore({ connectionString: 'mysql://x' })).toThrow(/`connectionString`/);
    expect(() => createPostgresStore({ pool, schema: 'Robert"; DROP' })).toThrow(/`schema`/);
    expect(() => createPostgresStore({ pool, pruneDoneAfterMs: -1 })).toThrow(/`pruneDoneAfterMs`/);
    expect(() => createPostgresStore({ pool, poolSize: 1 })).toThrow(/`poolSize`/);
  });
});
