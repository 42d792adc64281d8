import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readdirSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedDelivery, type SignedDelivery } from '../../src/testing/index.js';
import { killAllCli } from '../cli/run-cli.js';
import { PG_URL, pgTestSchema } from '../store/pg-schema.js';
import { SECRET, sleep } from './harness.js';
import { startInboxProcess, type InboxProcess } from './inbox-processes.js';
import { sendRoundRobin } from './round-robin.js';

// Restarting the server breaks every other test using it at that moment, so this runs on its own:
// `CONVO_KIT_PG_RESTART=1 npx vitest run test/receiver/postgres-restart.test.ts` (.ci/run does, after npm test).
const RUN = Boolean(PG_URL && process.env.CONVO_KIT_PG_RESTART === '1');

/** Asynchronous, so the client keeps sending while the server is down. */
async function restartPostgres(): Promise<void> {
  const version = readdirSync('/etc/postgresql')[0]!;
  await promisify(execFile)('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'restart'], {
    timeout: 60_000,
  });
}

describe.skipIf(!RUN)(
  'PostgreSQL restarted under load (skipped unless CONVO_KIT_PG_URL and CONVO_KIT_PG_RESTART=1 are set: it restarts the shared server)',
  () => {
    const schema = pgTestSchema();
    let processes: InboxProcess[] = [];
    beforeAll(async () => {
      processes = await Promise.all(
        [0, 1].map(() => startInboxProcess({ kind: 'postgres', where: schema.name, handlerMs: 2 })),
      );
    }, 120_000);
    afterAll(async () => {
      await killAllCli();
      await schema.drop();
    });

    it('the receivers answer 503 while it is down, recover by themselves, and lose nothing they acked', async () => {
      const plan: (readonly [SignedDelivery, number])[] = Array.from({ length: 800 }, (_, i) => [
        signedDelivery({ secret: SECRET, event: 'message.received' }),
        i % 2,
      ]);
      let restarted: Promise<void> | undefined;
      const log = await sendRoundRobin(plan, () => processes.map((p) => p.url), {
        lanes: 8,
        attempts: 100,
        onSent: (n) => {
          if (n === 200) restarted = restartPostgres();
        },
      });
      await restarted;
      console.log(`PostgreSQL restart: answers ${JSON.stringify(Object.fromEntries(log.statuses))}`);
      expect(log.statuses.get(503)).toBeGreaterThan(0);
      expect(log.acked.size).toBe(plan.length);
      const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
      try {
        const unfinished = async () =>
          Number(
            (await pool.query(`SELECT count(*) AS n FROM "${schema.name}".inbox WHERE status <> 'done'`)).rows[0]!.n,
          );
        for (const deadline = Date.now() + 60_000; (await unfinished()) > 0 && Date.now() < deadline; )
          await sleep(500);
        expect(await unfinished()).toBe(0);
        const rows = await pool.query(`SELECT count(*)::int AS n FROM "${schema.name}".inbox`);
        expect(rows.rows[0]).toEqual({ n: plan.length });
      } finally {
        await pool.end();
      }
      const ran = new Set(processes.flatMap((p) => p.lines('end')));
      expect([...log.acked].filter((id) => !ran.has(id))).toEqual([]);
    }, 300_000);
  },
);
