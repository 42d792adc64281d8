import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedDelivery, type SignedDelivery } from '../../src/testing/index.js';
import { killAllCli } from '../cli/run-cli.js';
import { PG_HOW_TO, PG_URL, pgTestSchema } from '../store/pg-schema.js';
import { SECRET, sleep } from './harness.js';
import { startInboxProcess, type InboxProcess } from './inbox-processes.js';
import { postTo, sendRoundRobin } from './round-robin.js';

const PROCESSES = 4;
const UNIQUE = 4000;
const DUPLICATES = 1000; // 20% of the 5,000 sent

describe.skipIf(!PG_URL)(`4 receiver processes on one PostgreSQL inbox ${PG_HOW_TO}`, () => {
  const schema = pgTestSchema();
  let pool: pg.Pool;
  let processes: InboxProcess[] = [];
  const everyProcess: InboxProcess[] = [];
  const start = async () => {
    const p = await startInboxProcess({ kind: 'postgres', where: schema.name, handlerMs: 2 });
    everyProcess.push(p);
    return p;
  };
  const handled = (id?: string) =>
    everyProcess.flatMap((p) => p.lines('end')).filter((handledId) => id === undefined || handledId === id);
  const unfinished = async () =>
    Number((await pool.query(`SELECT count(*) AS n FROM "${schema.name}".inbox WHERE status <> 'done'`)).rows[0]!.n);

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: PG_URL, max: 2 });
    processes = await Promise.all(Array.from({ length: PROCESSES }, start));
  }, 120_000);
  afterAll(async () => {
    await killAllCli();
    await pool.end();
    await schema.drop();
  });

  it('5,000 deliveries, 20% duplicates sent to another process, one process SIGKILLed and restarted: every acked delivery runs, one row per id', async () => {
    const unique = Array.from({ length: UNIQUE }, () => signedDelivery({ secret: SECRET, event: 'message.received' }));
    // Each duplicate follows its original a little later, aimed at a different process.
    const plan: (readonly [SignedDelivery, number])[] = [];
    unique.forEach((d, i) => {
      plan.push([d, i % PROCESSES]);
      if (i % 4 === 3) plan.push([unique[i - 2]!, (i - 2 + 1 + (i % 3)) % PROCESSES]);
    });
    expect(plan).toHaveLength(UNIQUE + DUPLICATES);

    let killed: Promise<void> | undefined;
    const log = await sendRoundRobin(plan, () => processes.map((p) => p.url), {
      lanes: 16,
      attempts: 12,
      onSent: (n) => {
        if (n !== 2000) return;
        killed = (async () => {
          await processes[1]!.process.stop('SIGKILL');
          processes[1] = await start();
        })();
      },
    });
    await killed;
    expect(log.acked.size).toBe(UNIQUE);
    // The kill was felt: some sends found no process, and were retried elsewhere.
    expect(everyProcess).toHaveLength(PROCESSES + 1);
    expect(log.duplicates).toBeGreaterThanOrEqual(DUPLICATES);

    // The killed process's leases lapse (8 s) and the others finish its work.
    for (const deadline = Date.now() + 90_000; (await unfinished()) > 0 && Date.now() < deadline; ) await sleep(500);
    expect(await unfinished()).toBe(0);
    const ran = new Set(handled());
    const notRun = [...log.acked].filter((id) => !ran.has(id));
    expect(notRun).toEqual([]);
    const rows = await pool.query(
      `SELECT count(*)::int AS n, count(DISTINCT id)::int AS ids FROM "${schema.name}".inbox`,
    );
    expect(rows.rows[0]).toEqual({ n: UNIQUE, ids: UNIQUE });
    // At least once, and more than once only for what the killed process was running.
    expect(handled().length - ran.size).toBeLessThan(50);
    console.log(
      `4 PG receivers: ${plan.length} sent, ${log.acked.size} acked, ${ran.size} handled, ${handled().length - ran.size} run twice (killed mid-handler), answers ${JSON.stringify(Object.fromEntries(log.statuses))}`,
    );
  }, 330_000);

  it('a duplicate storm spread across the processes stores one row and runs the handler once', async () => {
    const d = signedDelivery({ secret: SECRET, event: 'ticket.created' });
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => postTo(processes[i % PROCESSES]!.url, d)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => !a.duplicate)).toHaveLength(1);
    await sleep(1500);
    for (const deadline = Date.now() + 30_000; handled(d.deliveryId).length === 0 && Date.now() < deadline; )
      await sleep(200);
    await sleep(1000);
    expect(handled(d.deliveryId)).toEqual([d.deliveryId]);
    const rows = await pool.query(`SELECT status FROM "${schema.name}".inbox WHERE id = $1`, [d.deliveryId]);
    expect(rows.rows).toEqual([{ status: 'done' }]);
  }, 60_000);
});
