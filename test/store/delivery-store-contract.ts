import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DeliveryStoreError,
  MAX_STEP_RESULT_BYTES,
  type DeliveryStore,
  type NewDelivery,
  type StepRecord,
} from '../../src/store/index.js';

export const T0 = 1_763_683_200_000;
export const LEASE = { leaseMs: 30_000, owner: 'worker-a' };

/** A done step of delivery `deliveryId` (event `evt_<deliveryId>`, as delivery() makes it). */
export function step(deliveryId: string, name: string, overrides: Partial<StepRecord> = {}): StepRecord {
  return {
    eventKey: `evt_${deliveryId}`,
    name,
    deliveryId,
    attempt: 1,
    outcome: 'done',
    result: JSON.stringify({ name }),
    error: null,
    startedAt: T0,
    finishedAt: T0 + 1,
    ...overrides,
  };
}

export function delivery(id: string, overrides: Partial<NewDelivery> = {}): NewDelivery {
  const body = Buffer.from(JSON.stringify({ id: `evt_${id}`, event: overrides.event ?? 'message.received', data: {} }));
  return {
    id,
    eventId: `evt_${id}`,
    event: 'message.received',
    body,
    signature: 'sha256=' + 'a'.repeat(64),
    timestamp: String(T0 / 1000),
    receivedAt: T0,
    ...overrides,
  };
}

/** One inbox per test, reached through as many store handles (processes) as the test asks for. */
export interface StoreHarness {
  /** Opens a handle on this test's inbox (a second call: another process sharing it). */
  open(options?: { pruneDoneAfterMs?: number | null }): DeliveryStore;
  /** Removes the inbox; every handle is closed by then. */
  remove(): Promise<void>;
}

/**
 * The DeliveryStore contract: what the receiver relies on, run against every store (SQLite, PostgreSQL).
 * `harness` makes a fresh, empty inbox for each test.
 */
export function deliveryStoreContract(harness: () => Promise<StoreHarness> | StoreHarness): void {
  let inbox: StoreHarness;
  let store: DeliveryStore;
  const others: DeliveryStore[] = [];
  /** Another handle on the same inbox, closed after the test. */
  const another = (options?: { pruneDoneAfterMs?: number | null }) => {
    const other = inbox.open(options);
    others.push(other);
    return other;
  };
  beforeEach(async () => {
    inbox = await harness();
    store = inbox.open();
  });
  afterEach(async () => {
    await store.close();
    for (const other of others.splice(0)) await other.close();
    await inbox.remove();
  });

  describe('record', () => {
    it('stores a delivery once; recording the same id again changes nothing', async () => {
      await expect(store.record(delivery('dlv_1'))).resolves.toEqual({ inserted: true, id: 'dlv_1' });
      await expect(
        store.record(delivery('dlv_1', { eventId: 'evt_other', event: 'ticket.created', body: Buffer.from('{}') })),
      ).resolves.toEqual({ inserted: false, id: 'dlv_1' });
      const row = await store.get('dlv_1');
      expect(row).toMatchObject({
        id: 'dlv_1',
        event: 'message.received',
        status: 'pending',
        attempts: 0,
        nextAttemptAt: T0,
        receivedAt: T0,
        size: row!.body.byteLength,
        signature: 'sha256=' + 'a'.repeat(64),
        timestamp: String(T0 / 1000),
      });
      expect(Buffer.from(row!.body).toString()).toContain('evt_dlv_1');
      expect(await store.get('dlv_missing')).toBeUndefined();
    });

    it('treats a second delivery id for an event id already stored as a duplicate of the first row', async () => {
      await store.record(delivery('dlv_1', { eventId: 'evt_same' }));
      await expect(store.record(delivery('dlv_2', { eventId: 'evt_same' }))).resolves.toEqual({
        inserted: false,
        id: 'dlv_1',
      });
      expect(await store.get('dlv_2')).toBeUndefined();
      // In one turn too (one batch), and bodies without an event id never clash with each other.
      const storm = await Promise.all([
        store.record(delivery('dlv_3', { eventId: 'evt_storm' })),
        store.record(delivery('dlv_4', { eventId: 'evt_storm' })),
        store.record(delivery('dlv_5', { eventId: null })),
        store.record(delivery('dlv_6', { eventId: null })),
      ]);
      expect(storm).toEqual([
        { inserted: true, id: 'dlv_3' },
        { inserted: false, id: 'dlv_3' },
        { inserted: true, id: 'dlv_5' },
        { inserted: true, id: 'dlv_6' },
      ]);
      expect((await store.list()).data.map((d) => d.id)).toEqual(['dlv_6', 'dlv_5', 'dlv_3', 'dlv_1']);
    });

    it('inserts one row when the same id arrives 50 times at once', async () => {
      const results = await Promise.all(Array.from({ length: 50 }, () => store.record(delivery('dlv_storm'))));
      expect(results.filter((r) => r.inserted)).toHaveLength(1);
      expect((await store.list()).data).toHaveLength(1);
    });

    it('dedupes across handles (processes): a duplicate storm through two of them stores one row', async () => {
      const other = another();
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => (i % 2 ? other : store).record(delivery('dlv_shared'))),
      );
      expect(results.filter((r) => r.inserted)).toHaveLength(1);
      expect((await other.list()).data.map((d) => d.id)).toEqual(['dlv_shared']);
    });

    it('keeps the exact bytes, including ones that are not UTF-8', async () => {
      const body = Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x00, 0xff, 0x7d]);
      await store.record(delivery('dlv_bytes', { body }));
      expect(Buffer.from((await store.get('dlv_bytes'))!.body)).toEqual(body);
    });
  });

  describe('claim, renew, complete and fail', () => {
    it('leases due rows up to the limit, oldest due first; the attempt is written when it ends', async () => {
      for (let i = 0; i < 3; i++) await store.record(delivery(`dlv_${i}`, { receivedAt: T0 + i }));
      const claimed = await store.claim({ ...LEASE, limit: 2, now: T0 + 10 });
      expect(claimed.map((r) => r.id)).toEqual(['dlv_0', 'dlv_1']);
      expect(claimed[0]).toMatchObject({
        status: 'processing',
        attempts: 1,
        leaseOwner: 'worker-a',
        leaseUntil: T0 + 10 + 30_000,
      });
      expect(Buffer.from(claimed[0]!.body).toString()).toContain('evt_dlv_0');
      expect(await store.claim({ ...LEASE, limit: 5, now: T0 + 10 })).toHaveLength(1);
      expect(await store.claim({ ...LEASE, limit: 5, now: T0 + 10 })).toHaveLength(0);
      expect(await store.claim({ ...LEASE, limit: 0, now: T0 + 10 })).toHaveLength(0);
      expect(await store.attempts('dlv_0')).toEqual([]);
      await store.fail('dlv_0', 'worker-a', { error: 'nope', retryAt: T0 + 20, now: T0 + 15 });
      expect(await store.attempts('dlv_0')).toEqual([
        {
          deliveryId: 'dlv_0',
          attempt: 1,
          owner: 'worker-a',
          startedAt: T0 + 10,
          finishedAt: T0 + 15,
          outcome: 'failed',
          error: 'nope',
        },
      ]);
    });

    it('does not claim a row received in the future of `now`', async () => {
      await store.record(delivery('dlv_later', { receivedAt: T0 + 1000 }));
      expect(await store.claim({ ...LEASE, limit: 5, now: T0 })).toHaveLength(0);
    });

    it('claims no row twice when two workers claim at once', async () => {
      for (let i = 0; i < 20; i++) await store.record(delivery(`dlv_${i}`));
      const [a, b] = await Promise.all([
        store.claim({ ...LEASE, owner: 'a', limit: 15, now: T0 }),
        store.claim({ ...LEASE, owner: 'b', limit: 15, now: T0 }),
      ]);
      const ids = [...a, ...b].map((r) => r.id);
      expect(ids).toHaveLength(20);
      expect(new Set(ids).size).toBe(20);
    });

    it('two handles on one inbox (two processes) never lease the same row', async () => {
      const other = another();
      for (let i = 0; i < 30; i++) await store.record(delivery(`dlv_${i}`));
      const claims = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          (i % 2 ? other : store).claim({ ...LEASE, owner: `w${i}`, limit: 7, now: T0 }),
        ),
      );
      const ids = claims.flat().map((r) => r.id);
      expect(ids).toHaveLength(30);
      expect(new Set(ids).size).toBe(30);
    });

    it('completes only while the caller holds the lease', async () => {
      await store.record(delivery('dlv_1'));
      await store.claim({ ...LEASE, limit: 1, now: T0 });
      await expect(store.complete('dlv_1', 'someone-else', T0 + 1)).resolves.toBe(false);
      await expect(store.complete('dlv_1', 'worker-a', T0 + 1)).resolves.toBe(true);
      await expect(store.complete('dlv_1', 'worker-a', T0 + 2)).resolves.toBe(false);
      expect(await store.get('dlv_1')).toMatchObject({
        status: 'done',
        nextAttemptAt: null,
        leaseOwner: null,
        leaseUntil: null,
        lastError: null,
      });
      expect((await store.attempts('dlv_1'))[0]).toMatchObject({ outcome: 'done', finishedAt: T0 + 1 });
    });

    it('attempt ends made at once each settle their own row, and only for the lease holder', async () => {
      for (const id of ['dlv_1', 'dlv_2', 'dlv_3']) await store.record(delivery(id));
      await store.claim({ ...LEASE, limit: 3, now: T0 });
      const answers = await Promise.all([
        store.complete('dlv_1', 'worker-a', T0 + 1),
        store.complete('dlv_1', 'worker-a', T0 + 2),
        store.fail('dlv_2', 'worker-a', { error: 'boom', retryAt: T0 + 5000, now: T0 + 1 }),
        store.complete('dlv_3', 'someone-else', T0 + 1),
      ]);
      expect(answers).toEqual([true, false, true, false]);
      expect(await store.get('dlv_1')).toMatchObject({ status: 'done', updatedAt: T0 + 1 });
      expect(await store.get('dlv_2')).toMatchObject({ status: 'failed', lastError: 'boom', nextAttemptAt: T0 + 5000 });
      expect(await store.get('dlv_3')).toMatchObject({ status: 'processing', leaseOwner: 'worker-a' });
      expect(await store.attempts('dlv_1')).toHaveLength(1);
      expect((await store.attempts('dlv_2'))[0]).toMatchObject({ outcome: 'failed', error: 'boom' });
      expect(await store.attempts('dlv_3')).toEqual([]);
    });

    it('a failed row waits for its retry time; a dead one is never claimed again', async () => {
      await store.record(delivery('dlv_1'));
      await store.claim({ ...LEASE, limit: 1, now: T0 });
      await store.fail('dlv_1', 'worker-a', { error: 'boom', retryAt: T0 + 5000, now: T0 + 1 });
      expect(await store.get('dlv_1')).toMatchObject({ status: 'failed', lastError: 'boom', nextAttemptAt: T0 + 5000 });
      expect(await store.claim({ ...LEASE, limit: 1, now: T0 + 4999 })).toHaveLength(0);
      const [again] = await store.claim({ ...LEASE, limit: 1, now: T0 + 5000 });
      expect(again).toMatchObject({ attempts: 2 });
      await store.fail('dlv_1', 'worker-a', { error: 'x'.repeat(10_000), dead: true, now: T0 + 5001 });
      const dead = await store.get('dlv_1');
      expect(dead).toMatchObject({ status: 'dead', nextAttemptAt: null });
      expect(dead!.lastError!.length).toBe(2000);
      expect(await store.claim({ ...LEASE, limit: 1, now: T0 + 10 ** 9 })).toHaveLength(0);
      expect((await store.attempts('dlv_1')).map((a) => a.outcome)).toEqual(['failed', 'dead']);
    });

    it('claims a processing row again once its lease expired, and records the lost attempt', async () => {
      await store.record(delivery('dlv_1'));
      await store.claim({ ...LEASE, limit: 1, now: T0 });
      expect(await store.claim({ ...LEASE, owner: 'worker-b', limit: 1, now: T0 + 29_999 })).toHaveLength(0);
      const [taken] = await store.claim({ ...LEASE, owner: 'worker-b', limit: 1, now: T0 + 30_000 });
      expect(taken).toMatchObject({ leaseOwner: 'worker-b', attempts: 2 });
      await expect(store.complete('dlv_1', 'worker-a')).resolves.toBe(false);
      await store.complete('dlv_1', 'worker-b', T0 + 30_001);
      expect((await store.attempts('dlv_1')).map((a) => [a.owner, a.outcome, a.startedAt])).toEqual([
        ['worker-a', 'lost', T0],
        ['worker-b', 'done', T0 + 30_000],
      ]);
    });

    it('renew keeps a live lease from lapsing, and only for its owner', async () => {
      await store.record(delivery('dlv_1'));
      await store.claim({ ...LEASE, leaseMs: 1000, limit: 1, now: T0 });
      await expect(store.renew('dlv_1', 'worker-a', { leaseMs: 1000, now: T0 + 900 })).resolves.toBe(true);
      await expect(store.renew('dlv_1', 'worker-b', { leaseMs: 1000, now: T0 + 900 })).resolves.toBe(false);
      expect(await store.get('dlv_1')).toMatchObject({ leaseUntil: T0 + 1900, nextAttemptAt: T0 + 1900 });
      // Past the first lease, but within the renewed one: nobody may take it.
      expect(await store.claim({ ...LEASE, owner: 'worker-b', limit: 1, now: T0 + 1500 })).toHaveLength(0);
      expect(await store.claimById('dlv_1', { ...LEASE, owner: 'worker-b', now: T0 + 1500 })).toBeUndefined();
      await store.complete('dlv_1', 'worker-a', T0 + 1600);
      // The attempt started when it was claimed, not when it was last renewed.
      expect(await store.attempts('dlv_1')).toMatchObject([{ startedAt: T0, finishedAt: T0 + 1600, outcome: 'done' }]);
      await expect(store.renew('dlv_1', 'worker-a', { leaseMs: 1000, now: T0 + 1700 })).resolves.toBe(false);
      expect(await store.get('dlv_1')).toMatchObject({ status: 'done', leaseUntil: null, nextAttemptAt: null });
      await expect(store.renew('dlv_missing', 'worker-a', { leaseMs: 1000 })).resolves.toBe(false);
    });

    it('renew answers false once the lease lapsed and another worker took the row', async () => {
      await store.record(delivery('dlv_1'));
      await store.claim({ ...LEASE, leaseMs: 1000, limit: 1, now: T0 });
      await store.claim({ ...LEASE, owner: 'worker-b', limit: 1, now: T0 + 1000 });
      await expect(store.renew('dlv_1', 'worker-a', { leaseMs: 1000, now: T0 + 1001 })).resolves.toBe(false);
      expect(await store.get('dlv_1')).toMatchObject({ leaseOwner: 'worker-b', leaseUntil: T0 + 31_000 });
    });

    it('claimById takes a pending or failed row whatever its retry time, but not a live lease or a done row', async () => {
      await store.record(delivery('dlv_1'));
      expect(await store.claimById('dlv_1', { ...LEASE, now: T0 })).toMatchObject({ id: 'dlv_1', attempts: 1 });
      expect(await store.claimById('dlv_1', { ...LEASE, owner: 'b', now: T0 + 1 })).toBeUndefined();
      await store.fail('dlv_1', 'worker-a', { error: 'e', retryAt: T0 + 60_000, now: T0 + 2 });
      expect(await store.claimById('dlv_1', { ...LEASE, now: T0 + 3 })).toMatchObject({ attempts: 2 });
      await store.complete('dlv_1', 'worker-a', T0 + 4);
      expect(await store.claimById('dlv_1', { ...LEASE, now: T0 + 5 })).toBeUndefined();
      expect(await store.claimById('dlv_missing', { ...LEASE, now: T0 + 5 })).toBeUndefined();
    });

    it('claimById with replay takes a done or dead row too, attempts afresh, in one write; never a live lease', async () => {
      await store.record(delivery('dlv_1'));
      await store.claimById('dlv_1', { ...LEASE, now: T0 });
      await store.fail('dlv_1', 'worker-a', { error: 'bad', dead: true, now: T0 + 1 });
      expect(await store.claimById('dlv_1', { ...LEASE, now: T0 + 2 })).toBeUndefined();
      const replayed = await store.claimById('dlv_1', { ...LEASE, owner: 'replay', now: T0 + 2, replay: true });
      expect(replayed).toMatchObject({ id: 'dlv_1', status: 'processing', attempts: 1, leaseOwner: 'replay' });
      expect(await store.claimById('dlv_1', { ...LEASE, owner: 'b', now: T0 + 3, replay: true })).toBeUndefined();
      await store.complete('dlv_1', 'replay', T0 + 4);
      expect(await store.claimById('dlv_1', { ...LEASE, now: T0 + 5, replay: true })).toMatchObject({ attempts: 1 });
      expect(await store.claimById('dlv_missing', { ...LEASE, now: T0 + 5, replay: true })).toBeUndefined();
    });

    it('refuses nonsense lease options with the option named', async () => {
      await expect(store.claim({ limit: 1, leaseMs: 0, owner: 'a' })).rejects.toThrow(/`leaseMs`/);
      await expect(store.claim({ limit: -1, leaseMs: 10, owner: 'a' })).rejects.toThrow(/`limit`/);
      await expect(store.claim({ limit: 1, leaseMs: 10, owner: '' })).rejects.toThrow(/`owner`/);
      await expect(store.claimById('dlv_1', { leaseMs: Number.NaN, owner: 'a' })).rejects.toThrow(/`leaseMs`/);
      await expect(store.renew('dlv_1', 'a', { leaseMs: -5 })).rejects.toThrow(/`leaseMs`/);
      await expect(store.renew('dlv_1', '', { leaseMs: 5 })).rejects.toThrow(/`owner`/);
    });
  });

  describe('requeue and prune', () => {
    it('requeue puts dead and done rows back as pending with attempts counted afresh, leaving live leases alone', async () => {
      for (const id of ['dlv_dead', 'dlv_live']) await store.record(delivery(id));
      await store.claim({ ...LEASE, limit: 2, now: T0 });
      await store.fail('dlv_dead', 'worker-a', { error: 'bad', dead: true, now: T0 + 1 });
      await expect(store.requeue(['dlv_dead', 'dlv_live', 'dlv_missing', 'dlv_dead'], T0 + 2)).resolves.toBe(1);
      expect(await store.get('dlv_dead')).toMatchObject({
        status: 'pending',
        attempts: 0,
        nextAttemptAt: T0 + 2,
        lastError: 'bad',
      });
      expect(await store.get('dlv_live')).toMatchObject({ status: 'processing' });
      await expect(store.requeue([], T0 + 3)).resolves.toBe(0);
      await expect(store.requeue(Array.from({ length: 1001 }, (_, i) => `dlv_${i}`))).rejects.toThrow(
        DeliveryStoreError,
      );
    });

    it('requeue closes a lapsed attempt as lost', async () => {
      await store.record(delivery('dlv_1'));
      await store.claim({ ...LEASE, limit: 1, now: T0 });
      await expect(store.requeue(['dlv_1'], T0 + 30_000)).resolves.toBe(1);
      expect(await store.attempts('dlv_1')).toMatchObject([{ outcome: 'lost', owner: 'worker-a' }]);
    });

    it('prune deletes done rows older than the cut-off with their history, and nothing else', async () => {
      for (const id of ['dlv_old', 'dlv_new', 'dlv_failed']) await store.record(delivery(id));
      await store.claim({ ...LEASE, limit: 3, now: T0 });
      await store.complete('dlv_old', 'worker-a', T0 + 1);
      await store.complete('dlv_new', 'worker-a', T0 + 100);
      await store.fail('dlv_failed', 'worker-a', { error: 'e', retryAt: T0 + 1, now: T0 + 1 });
      await expect(store.prune(T0 + 50)).resolves.toBe(1);
      expect(await store.get('dlv_old')).toBeUndefined();
      expect(await store.attempts('dlv_old')).toEqual([]);
      expect(await store.get('dlv_new')).toBeDefined();
      expect(await store.get('dlv_failed')).toBeDefined();
      // A pruned id arriving again is a new delivery: after days, the service no longer retries it.
      await expect(store.record(delivery('dlv_old'))).resolves.toEqual({ inserted: true, id: 'dlv_old' });
    });

    it('prunes old done rows by itself on open when pruneDoneAfterMs is set, and keeps them with null', async () => {
      await store.record(delivery('dlv_done'));
      await store.claim({ ...LEASE, limit: 1, now: T0 });
      await store.complete('dlv_done', 'worker-a', T0 + 1);
      const keeper = another({ pruneDoneAfterMs: null });
      expect(await keeper.get('dlv_done')).toBeDefined();
      const pruner = another({ pruneDoneAfterMs: 24 * 3600 * 1000 });
      await expect.poll(() => pruner.get('dlv_done'), { timeout: 5000 }).toBeUndefined();
    });

    it('says how long it keeps done rows, so a receiver can check that against its tolerance', () => {
      expect(store.pruneDoneAfterMs).toBe(7 * 24 * 3600 * 1000);
      expect(another({ pruneDoneAfterMs: null }).pruneDoneAfterMs).toBeNull();
      expect(another({ pruneDoneAfterMs: 2 * 3600 * 1000 }).pruneDoneAfterMs).toBe(2 * 3600 * 1000);
    });
  });

  describe('list', () => {
    beforeEach(async () => {
      const events = ['message.received', 'message.sent', 'ticket.created', 'messages.custom', 'contact.updated'];
      for (let i = 0; i < 10; i++)
        await store.record(
          delivery(`dlv_${String(i).padStart(2, '0')}`, { event: events[i % 5]!, receivedAt: T0 + i * 1000 }),
        );
    });

    it('walks every row newest first, page by page, without repeats', async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await store.list({ limit: 3, cursor });
        expect(page.data.length).toBeLessThanOrEqual(3);
        seen.push(...page.data.map((d) => d.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => `dlv_${String(9 - i).padStart(2, '0')}`));
    });

    it('filters by event pattern exactly as the service matches subscriptions', async () => {
      const events = async (eventPattern: string) =>
        [...new Set((await store.list({ eventPattern })).data.map((d) => d.event))].sort();
      expect(await events('message.*')).toEqual(['message.received', 'message.sent']);
      expect(await events('ticket.created')).toEqual(['ticket.created']);
      expect(await events('*')).toHaveLength(5);
      expect(await events('messages.*')).toEqual([]);
    });

    it('filters by status and received time, and leaves the body out of a summary', async () => {
      await store.claim({ ...LEASE, limit: 2, now: T0 + 60_000 });
      const processing = await store.list({ status: 'processing' });
      expect(processing.data.map((d) => d.id).sort()).toEqual(['dlv_00', 'dlv_01']);
      expect(processing.data[0]).not.toHaveProperty('body');
      expect(processing.data[0]!.size).toBeGreaterThan(10);
      expect((await store.list({ status: ['pending', 'processing'] })).data).toHaveLength(10);
      expect((await store.list({ status: [] })).data).toHaveLength(0);
      expect((await store.list({ since: T0 + 3000, until: T0 + 6000 })).data.map((d) => d.id)).toEqual([
        'dlv_05',
        'dlv_04',
        'dlv_03',
      ]);
    });

    it('refuses a bad limit, status or cursor with the field named', async () => {
      await expect(store.list({ limit: 0 })).rejects.toThrow(/`limit`/);
      await expect(store.list({ limit: 501 })).rejects.toThrow(/`limit`/);
      await expect(store.list({ status: 'finished' as never })).rejects.toThrow(/`status`.*finished/);
      await expect(store.list({ cursor: 'not-a-cursor' })).rejects.toMatchObject({ code: 'INVALID_CURSOR' });
      await expect(store.list({ since: Number.NaN })).rejects.toThrow(/`since`/);
    });
  });

  describe('the step journal', () => {
    it('keeps a done step for its event; a second done save of it answers the first, unchanged', async () => {
      await store.record(delivery('dlv_1'));
      const first = step('dlv_1', 'send');
      await expect(store.saveStep(first)).resolves.toEqual(first);
      await expect(store.saveStep(step('dlv_1', 'send', { result: '"other"', attempt: 2 }))).resolves.toEqual(first);
      // Another handle (process) reads it under the event's key.
      await expect(another().steps('evt_dlv_1')).resolves.toEqual([first]);
      await expect(store.steps('evt_none')).resolves.toEqual([]);
    });

    it('a failed step is overwritten by its next attempt, a done one never by a failure', async () => {
      await store.record(delivery('dlv_1'));
      const failed = step('dlv_1', 'crm', { outcome: 'failed', result: null, error: 'x'.repeat(5000) });
      const saved = await store.saveStep(failed);
      expect(saved.error).toHaveLength(2000);
      const done = step('dlv_1', 'crm', { attempt: 2, result: null });
      await expect(store.saveStep(done)).resolves.toEqual(done);
      await expect(store.saveStep({ ...failed, attempt: 3 })).resolves.toEqual(done);
      await expect(store.steps('evt_dlv_1')).resolves.toEqual([done]);
    });

    it('two handles saving one step at once agree on one result', async () => {
      await store.record(delivery('dlv_1'));
      const other = another();
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? other : store).saveStep(step('dlv_1', 'race', { result: String(i), attempt: i + 1 })),
        ),
      );
      expect(new Set(answers.map((a) => a.result)).size).toBe(1);
      await expect(store.steps('evt_dlv_1')).resolves.toEqual([answers[0]]);
    });

    it('lists a delivery’s steps in the order they were first written, and clears them for a replay', async () => {
      for (const id of ['dlv_1', 'dlv_2']) await store.record(delivery(id));
      for (const name of ['b', 'a', 'c']) await store.saveStep(step('dlv_1', name));
      await store.saveStep(step('dlv_2', 'a'));
      expect((await store.deliverySteps('dlv_1')).map((s) => s.name)).toEqual(['b', 'a', 'c']);
      await expect(store.clearSteps(['dlv_1', 'dlv_missing'])).resolves.toBe(3);
      await expect(store.deliverySteps('dlv_1')).resolves.toEqual([]);
      expect(await store.deliverySteps('dlv_2')).toHaveLength(1);
      await expect(store.clearSteps([])).resolves.toBe(0);
      await expect(store.clearSteps(Array.from({ length: 1001 }, (_, i) => `dlv_${i}`))).rejects.toThrow(
        /clearSteps takes at most 1000 ids/,
      );
    });

    it('prune takes a delivery’s steps with it, and leaves the others’', async () => {
      for (const id of ['dlv_old', 'dlv_new']) await store.record(delivery(id));
      await store.saveStep(step('dlv_old', 'a'));
      await store.saveStep(step('dlv_new', 'a'));
      await store.claim({ ...LEASE, limit: 2, now: T0 });
      await store.complete('dlv_old', 'worker-a', T0 + 1);
      await store.complete('dlv_new', 'worker-a', T0 + 100);
      await expect(store.prune(T0 + 50)).resolves.toBe(1);
      await expect(store.steps('evt_dlv_old')).resolves.toEqual([]);
      expect(await store.steps('evt_dlv_new')).toHaveLength(1);
    });

    it('refuses a step without a name, with a result over the bound, or with an unknown outcome', async () => {
      await expect(store.saveStep(step('dlv_1', ''))).rejects.toThrow(/step `name` of 1 to 200 characters/);
      await expect(
        store.saveStep(step('dlv_1', 'big', { result: JSON.stringify('x'.repeat(MAX_STEP_RESULT_BYTES)) })),
      ).rejects.toThrow(/at most 65536 bytes/);
      await expect(store.saveStep(step('dlv_1', 'odd', { outcome: 'lost' as never }))).rejects.toThrow(
        /`outcome` to be done or failed/,
      );
      await expect(store.steps('evt_dlv_1')).resolves.toEqual([]);
    });
  });

  describe('opening and closing', () => {
    it('keeps rows across a reopen', async () => {
      await store.record(delivery('dlv_1'));
      await store.close();
      store = inbox.open();
      expect(await store.get('dlv_1')).toMatchObject({ id: 'dlv_1', status: 'pending' });
    });

    it('answers STORE_CLOSED after close, and a second close is harmless', async () => {
      await store.close();
      await store.close();
      await expect(store.record(delivery('dlv_1'))).rejects.toMatchObject({ code: 'STORE_CLOSED' });
      await expect(store.list()).rejects.toMatchObject({ code: 'STORE_CLOSED' });
      await expect(store.claim({ ...LEASE, limit: 1 })).rejects.toMatchObject({ code: 'STORE_CLOSED' });
    });

    it('a record() made just before close() still commits', async () => {
      const pending = store.record(delivery('dlv_last'));
      await store.close();
      await expect(pending).resolves.toEqual({ inserted: true, id: 'dlv_last' });
      store = inbox.open();
      expect(await store.get('dlv_last')).toBeDefined();
    });
  });
}
