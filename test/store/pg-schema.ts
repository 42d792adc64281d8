import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL server the tests may use; `.ci/run` sets it. Without it, PostgreSQL tests are skipped. */
export const PG_URL = process.env.CONVO_KIT_PG_URL;

/** Appended to a skipped suite's name, and printed once per file, so the skip says how to run it. */
export const PG_HOW_TO =
  '(skipped without CONVO_KIT_PG_URL: run with CONVO_KIT_PG_URL=postgres://postgres@127.0.0.1:5432/test, as .ci/run does)';
if (!PG_URL) console.warn(`PostgreSQL tests ${PG_HOW_TO}`);

/** A schema name of its own for one test, so parallel runs and test files never see each other's rows. */
export function pgTestSchema(): { name: string; drop: () => Promise<void> } {
  const name = `t_${randomBytes(6).toString('hex')}`;
  return {
    name,
    drop: async () => {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
