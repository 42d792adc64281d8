import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { DEFAULT_PG_URL } from '../support/postgres-server.js';

/**
 * The PostgreSQL server the tests use: CONVO_KIT_PG_URL, else the local default when it answered
 * test/support/postgres-server.ts (vitest's global setup, which also said so in one line when it did not).
 */
export const PG_URL = process.env.CONVO_KIT_PG_URL || undefined;

/** Appended to the name of a suite that skips, so the skip says how to run it; empty when it runs. */
export const PG_HOW_TO = PG_URL
  ? ''
  : `(skipped: no PostgreSQL server at ${DEFAULT_PG_URL}; start one there, or set CONVO_KIT_PG_URL)`;

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
