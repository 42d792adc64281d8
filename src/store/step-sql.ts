import { STEP_COLUMNS } from './delivery-rows.js';

/**
 * The journal's upsert, one text for SQLite and PostgreSQL (`table` qualified as the store needs, `alias`
 * its bare name, `param(n)` the store's placeholder for the n-th value): a new step is inserted, a failed one
 * is overwritten by its next attempt, a done one is never touched.
 */
export function saveStepSql(table: string, alias: string, param: (n: number) => string): string {
  const columns = STEP_COLUMNS.split(', ');
  const update = columns
    .filter((c) => c !== 'event_key' && c !== 'name')
    .map((c) => `${c} = excluded.${c}`)
    .join(', ');
  return `INSERT INTO ${table} (${STEP_COLUMNS}) VALUES (${columns.map((_, i) => param(i + 1)).join(', ')})
    ON CONFLICT (event_key, name) DO UPDATE SET ${update} WHERE ${alias}.outcome = 'failed'`;
}
