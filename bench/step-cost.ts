// What a journaled step costs (ctx.step's runner on each store: CPU of this process and wall time), and
// what ctx.client adds to a bare client call to the emulator. The runner is the receiver's own
// (src/receiver/step-runner.ts), on real stores: a SQLite file at `full` durability, and PostgreSQL.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createClient } from '../src/client/index.js';
import { createEmulator } from '../src/emulator/index.js';
import { SEED_IDS } from '../src/emulator/seed.js';
import { stepClient } from '../src/receiver/step-client.js';
import { StepRunner } from '../src/receiver/step-runner.js';
import { createSqliteStore, type DeliveryStore } from '../src/store/index.js';
import { createPostgresStore } from '../src/store/postgres/index.js';
import { PG_URL } from './bench-config.js';
import { benchSchema, dropSchemas, postgresUnavailable } from './bench-postgres.js';

/** Events per measured round, and steps per event: each event's first step also reads its (empty) journal. */
const EVENTS = 100;
const STEPS_PER_EVENT = 5;
const ROUNDS = 3;
/** Client calls per measured round, each way. */
const CALLS = 100;

interface Cost {
  /** µs of this process's CPU per operation. */
  cpu: number;
  /** µs of wall time per operation. */
  wall: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

/** Runs `operations` one after another `ROUNDS` times; the median round's cost per operation. */
async function cost(count: number, operations: () => Promise<void>): Promise<Cost> {
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const startCpu = process.cpuUsage();
    const started = process.hrtime.bigint();
    await operations();
    const used = process.cpuUsage(startCpu);
    wall.push(Number(process.hrtime.bigint() - started) / 1000 / count);
    cpu.push((used.user + used.system) / count);
  }
  return { cpu: median(cpu), wall: median(wall) };
}

function runner(store: DeliveryStore, eventKey: string): StepRunner {
  return new StepRunner({
    store,
    eventKey,
    deliveryId: `dlv_${eventKey}`,
    attempt: 1,
    now: Date.now,
    secrets: async () => [],
  });
}

/** A journaled step run for the first time (run + journal write), a journaled one read back, and a bare call. */
async function storeCosts(store: DeliveryStore): Promise<{ first: Cost; replayed: Cost; bare: Cost }> {
  let batch = 0;
  const keys: string[][] = [];
  const first = await cost(EVENTS * STEPS_PER_EVENT, async () => {
    const round = Array.from({ length: EVENTS }, () => `evt_${randomBytes(8).toString('hex')}_${batch}`);
    batch++;
    keys.push(round);
    for (const key of round) {
      const r = runner(store, key);
      for (let s = 0; s < STEPS_PER_EVENT; s++) await r.step(`step-${s}`, () => ({ id: `${key}-${s}`, ok: true }));
    }
  });
  let replayRound = 0;
  const replayed = await cost(EVENTS * STEPS_PER_EVENT, async () => {
    for (const key of keys[replayRound++ % keys.length]!) {
      const r = runner(store, key);
      for (let s = 0; s < STEPS_PER_EVENT; s++) await r.step(`step-${s}`, () => ({ id: 'not run', ok: false }));
    }
  });
  const bare = await cost(EVENTS * STEPS_PER_EVENT, async () => {
    for (let e = 0; e < EVENTS; e++) for (let s = 0; s < STEPS_PER_EVENT; s++) await (async () => ({ id: s }))();
  });
  return { first, replayed, bare };
}

function printStore(name: string, c: { first: Cost; replayed: Cost; bare: Cost }): void {
  const f = (x: Cost) => `${x.cpu.toFixed(0)} µs CPU, ${x.wall.toFixed(0)} µs wall`;
  console.log(`ctx.step on ${name}: first run (run + journal write) ${f(c.first)} per step`);
  console.log(`  journaled, on a later attempt (read back, fn not run): ${f(c.replayed)} per step`);
  console.log(`  the same fn called bare: ${c.bare.cpu.toFixed(1)} µs CPU, ${c.bare.wall.toFixed(1)} µs wall`);
}

/** ctx.client (a step of its own, journaled on SQLite) against the bare client, each call a GET to the emulator. */
async function clientCosts(): Promise<{ bare: Cost; stepped: Cost; sendBare: Cost; sendStepped: Cost }> {
  const emulator = await createEmulator({ logger: pino({ level: 'silent' }), plan: 'enterprise' });
  const server = createServer(emulator.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = createClient({ apiKey: emulator.adminKey, baseUrl, maxRetries: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'convo-kit-steps-'));
  const store = createSqliteStore({ path: join(dir, 's.db'), pruneDoneAfterMs: null });
  const id = SEED_IDS.delivered.conversation;
  const signal = new AbortController().signal;
  const bound = () => stepClient(client, runner(store, `evt_${randomBytes(8).toString('hex')}`), signal);
  try {
    // Warm both paths (connections, JIT) before measuring.
    for (let i = 0; i < 20; i++) {
      await client.conversations.get({ id });
      await bound().conversations.get({ id });
    }
    const bare = await cost(CALLS, async () => {
      for (let i = 0; i < CALLS; i++) await client.conversations.get({ id });
    });
    const stepped = await cost(CALLS, async () => {
      for (let i = 0; i < CALLS; i++) await bound().conversations.get({ id });
    });
    let n = 0;
    const sendBare = await cost(CALLS, async () => {
      for (let i = 0; i < CALLS; i++)
        await client.conversations.sendMessage({
          id,
          content: `bench ${n++}`,
          idempotencyKey: randomBytes(8).toString('hex'),
        });
    });
    const sendStepped = await cost(CALLS, async () => {
      for (let i = 0; i < CALLS; i++) await bound().conversations.sendMessage({ id, content: `bench ${n++}` });
    });
    return { bare, stepped, sendBare, sendStepped };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await emulator.close();
  }
}

export async function stepCosts(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'convo-kit-steps-'));
  const sqlite = createSqliteStore({ path: join(dir, 's.db'), durability: 'full', pruneDoneAfterMs: null });
  try {
    printStore('SQLite (full durability; journal writes are group-committed, not fsynced)', await storeCosts(sqlite));
  } finally {
    await sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const unavailable = await postgresUnavailable();
  if (unavailable) console.log(`ctx.step on PostgreSQL: skipped (${unavailable})`);
  else {
    const schema = benchSchema(1);
    const postgres = createPostgresStore({ connectionString: PG_URL, schema, pruneDoneAfterMs: null });
    try {
      printStore("PostgreSQL (this process's CPU; the server's is not counted)", await storeCosts(postgres));
    } finally {
      await postgres.close();
      await dropSchemas([schema]);
    }
  }
  const c = await clientCosts();
  const line = (what: string, bare: Cost, stepped: Cost) =>
    console.log(
      `${what}: bare ${bare.cpu.toFixed(0)} µs CPU / ${bare.wall.toFixed(0)} µs wall; through ctx.client ${stepped.cpu.toFixed(0)} µs CPU / ${stepped.wall.toFixed(0)} µs wall (+${(stepped.wall - bare.wall).toFixed(0)} µs wall, x${(stepped.wall / bare.wall).toFixed(2)})`,
    );
  console.log("client calls to the emulator (in this process, so its CPU is in both), ctx.client's steps on SQLite:");
  line('  conversations.get', c.bare, c.stepped);
  line('  conversations.sendMessage', c.sendBare, c.sendStepped);
  console.log('');
}
