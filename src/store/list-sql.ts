import { SUMMARY_COLUMNS } from './delivery-rows.js';
import type { CheckedListQuery } from './list-query.js';

export interface ListSqlDialect {
  /** The inbox table as the statement names it (schema-qualified in PostgreSQL). */
  table: string;
  /** The placeholder of the n-th argument, from 1: `?` in SQLite, `$n` in PostgreSQL. */
  param: (n: number) => string;
}

/** One page of a list query, newest stored first, one row more than the limit to tell whether more follow. */
export function listSql(q: CheckedListQuery, dialect: ListSqlDialect): { sql: string; args: (string | number)[] } {
  const where: string[] = [];
  const args: (string | number)[] = [];
  /** The placeholder for `value`, which joins the arguments in order. */
  const arg = (value: string | number) => dialect.param(args.push(value));
  if (q.statuses) where.push(`status IN (${q.statuses.map(arg).join(', ') || 'NULL'})`);
  if (q.event.kind === 'exact') where.push(`event = ${arg(q.event.name)}`);
  if (q.event.kind === 'prefix') where.push(`substr(event, 1, ${arg(q.event.prefix.length)}) = ${arg(q.event.prefix)}`);
  if (q.since !== null) where.push(`received_at >= ${arg(q.since)}`);
  if (q.until !== null) where.push(`received_at < ${arg(q.until)}`);
  if (q.before !== null) where.push(`seq < ${arg(q.before)}`);
  const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
  return {
    sql: `SELECT ${SUMMARY_COLUMNS} FROM ${dialect.table} ${filter} ORDER BY seq DESC LIMIT ${arg(q.limit + 1)}`,
    args,
  };
}
