import type { CheckedListQuery } from './list-query.js';
import { SUMMARY_COLUMNS } from './sqlite-rows.js';

/** One page of a list query, newest stored first, one row more than the limit to tell whether more follow. */
export function listSql(q: CheckedListQuery): { sql: string; args: (string | number)[] } {
  const where: string[] = [];
  const args: (string | number)[] = [];
  const add = (clause: string, ...values: (string | number)[]) => {
    where.push(clause);
    args.push(...values);
  };
  if (q.statuses) add(`status IN (${q.statuses.map(() => '?').join(', ') || 'NULL'})`, ...q.statuses);
  if (q.event.kind === 'exact') add('event = ?', q.event.name);
  if (q.event.kind === 'prefix') add('substr(event, 1, ?) = ?', q.event.prefix.length, q.event.prefix);
  if (q.since !== null) add('received_at >= ?', q.since);
  if (q.until !== null) add('received_at < ?', q.until);
  if (q.before !== null) add('seq < ?', q.before);
  const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
  return {
    sql: `SELECT ${SUMMARY_COLUMNS} FROM inbox ${filter} ORDER BY seq DESC LIMIT ?`,
    args: [...args, q.limit + 1],
  };
}
