import type pg from 'pg';

/** The store's query: migrates on first use, then runs `text` (as the prepared statement `name`, when given). */
export type StoreQuery = <R extends pg.QueryResultRow>(
  text: string,
  values: unknown[],
  name?: string,
) => Promise<pg.QueryResult<R>>;
