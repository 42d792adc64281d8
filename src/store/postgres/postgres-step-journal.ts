import type pg from 'pg';
import { STEP_COLUMNS, stepValues, toStep, type StepRow } from '../delivery-rows.js';
import { MAX_STEPS_PER_EVENT, type StepJournal, type StepRecord } from '../step-journal.js';
import { saveStepSql } from '../step-sql.js';
import { DeliveryStoreError } from '../store-error.js';
import { checkedStep, checkRequeueIds } from '../store-rules.js';
import type { StoreQuery } from './store-query.js';

export interface PostgresJournalDeps {
  /** The schema-qualified journal table. */
  table: string;
  query: StoreQuery;
  pool: pg.Pool;
  /** Resolves once the schema is migrated. */
  ready: () => Promise<void>;
  /** The store's type parsers (bigint times as numbers). */
  types: pg.CustomTypesConfig;
  /** The store's CTE that lets a bookkeeping statement commit without waiting for the WAL fsync. */
  relaxedCommit: string;
  open: () => void;
}

/** SQLSTATE 25P02: a statement of the transaction failed (and was caught), so the transaction can only roll back. */
const IN_FAILED_TRANSACTION = '25P02';

const rolledBack = (name: string, cause?: unknown) =>
  new DeliveryStoreError(
    'STEP_ROLLED_BACK',
    `The transaction of step "${name}" was rolled back: a statement in it failed (and was caught), which aborts the whole transaction`,
    { cause },
  );

/** The PostgreSQL store's step journal, ctx.transaction's atomic step included. */
export function postgresStepJournal(deps: PostgresJournalDeps): Required<StepJournal> {
  const { table, query, pool, types, open } = deps;
  const saveSql = saveStepSql(table, 'inbox_steps', (n) => `$${n}`);
  const select = `SELECT ${STEP_COLUMNS} FROM ${table}`;

  async function stored(eventKey: string, name: string, via: Pick<pg.PoolClient, 'query'> = pool): Promise<StepRecord> {
    const { rows } = await via.query<StepRow>({
      text: `${select} WHERE event_key = $1 AND name = $2`,
      values: [eventKey, name],
      types,
    });
    return toStep(rows[0]!);
  }

  async function listBy(column: 'event_key' | 'delivery_id', value: string): Promise<StepRecord[]> {
    open();
    const { rows } = await query<StepRow>(`${select} WHERE ${column} = $1 ORDER BY seq LIMIT ${MAX_STEPS_PER_EVENT}`, [
      value,
    ]);
    return rows.map(toStep);
  }

  return {
    steps: (eventKey) => listBy('event_key', eventKey),
    async saveStep(step) {
      open();
      const checked = checkedStep(step);
      // Bookkeeping (relaxed commit): a step lost to a crash of the server runs again, and a send through
      // ctx.client goes again under the same Idempotency-Key.
      const { rowCount } = await query(
        `WITH ${deps.relaxedCommit}, saved AS (${saveSql} RETURNING 1) SELECT 1 FROM saved, relaxed`,
        stepValues(checked),
      );
      // Nothing saved: another attempt's done row was there first, and stands.
      return rowCount === 1 ? checked : stored(checked.eventKey, checked.name);
    },
    deliverySteps: (deliveryId) => listBy('delivery_id', deliveryId),
    async clearSteps(deliveryIds) {
      open();
      checkRequeueIds(deliveryIds, 'clearSteps');
      if (deliveryIds.length === 0) return 0;
      const { rowCount } = await query(`DELETE FROM ${table} WHERE delivery_id = ANY($1::text[])`, [[...deliveryIds]]);
      return rowCount ?? 0;
    },
    async stepTransaction(step, run) {
      open();
      const checked = checkedStep(step);
      await deps.ready();
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query('BEGIN');
        // The journal row first: a second process running the same step waits here for this transaction,
        // and then finds the step done (or, if this one rolled back, takes it), never running it twice.
        const claimed = await client.query({
          text: `${saveSql} RETURNING seq`,
          values: stepValues({ ...checked, outcome: 'done', result: null, error: null, finishedAt: checked.startedAt }),
          types,
        });
        if (claimed.rowCount === 0) {
          await client.query('ROLLBACK');
          return await stored(checked.eventKey, checked.name, client);
        }
        const { result, finishedAt } = await run(client);
        const done: StepRecord = checkedStep({ ...checked, outcome: 'done', result, error: null, finishedAt });
        try {
          await client.query({
            text: `UPDATE ${table} SET result = $1, finished_at = $2 WHERE seq = $3`,
            values: [done.result, finishedAt, (claimed.rows[0] as { seq: number }).seq],
          });
        } catch (error) {
          throw (error as { code?: unknown }).code === IN_FAILED_TRANSACTION ? rolledBack(checked.name, error) : error;
        }
        // COMMIT of a transaction a failed statement aborted answers ROLLBACK, not an error.
        const commit = await client.query('COMMIT');
        if (commit.command !== 'COMMIT') throw rolledBack(checked.name);
        return done;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        throw error;
      } finally {
        // A connection that could not roll back is not handed to the next caller.
        client.release(broken);
      }
    },
  };
}
