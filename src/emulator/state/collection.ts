import type Database from 'better-sqlite3';
import { ApiFailure } from '../api-failure.js';
import { PAGE_DEFAULT_LIMIT, type Page, type Pagination } from '../../api/schemas/page.js';
import { encodeSeqCursor } from '../../internal/seq-cursor.js';
import { JsonText } from './json-text.js';
import { ORDER_INDEXES } from './docs-schema.js';
import { versionedCache } from './kind-versions.js';
import { decodeListCursor } from './list-cursor.js';
import { statement } from './statement.js';

export interface ListOptions {
  /** @default 25 */
  limit?: number;
  cursor?: string;
  /** Equality filters on top-level JSON fields; `undefined` values are ignored. */
  where?: Record<string, string | number | boolean | null | undefined>;
  /** Any further predicate, applied after `where` (kept for rare filters; bounded by `limit` scans). */
  filter?: (doc: unknown) => boolean;
}

const FIELD = /^[a-z_][a-z0-9_]*$/;

/**
 * The characters of list pages kept per kind until one of its documents is written: bounded memory whatever
 * the pages asked for (a walk through 25,000 messages a hundred at a time would keep 8 MB otherwise).
 */
const KEPT_PAGE_CHARS_PER_KIND = 1024 * 1024;
const keptPages = versionedCache<string>(KEPT_PAGE_CHARS_PER_KIND, (text) => text.length);

/**
 * A kind of record (tickets, contacts, keys, …) kept as JSON documents in one SQLite table.
 * `seq` grows with every insert, so newest-first pages keyed by `seq < cursor` stay correct while
 * new rows arrive: a walk never repeats or skips a row that existed when it started.
 */
export class Collection<T extends object> {
  constructor(
    private readonly db: Database.Database,
    readonly kind: string,
    /** The field that holds the id (`integration_id` for connected accounts). @default 'id' */
    readonly idField = 'id' as keyof T & string,
  ) {}

  /** Reserves `count` sequence numbers and returns the last one. */
  private nextSeq(count = 1): number {
    const row = statement(this.db, 'UPDATE doc_seq SET n = n + ? RETURNING n').get(count) as { n: number } | undefined;
    if (row) return row.n;
    statement(this.db, 'INSERT INTO doc_seq (n) VALUES (?)').run(count);
    return count;
  }

  get(id: string): T | undefined {
    const row = statement(this.db, 'SELECT data FROM docs WHERE kind = ? AND id = ?').get(this.kind, id) as
      | { data: string }
      | undefined;
    return row ? (JSON.parse(row.data) as T) : undefined;
  }

  /** Like get(), but a missing id is the API's 404. */
  require(id: string, label = this.kind.replace(/s$/, '')): T {
    const doc = this.get(id);
    if (!doc) throw new ApiFailure('NOT_FOUND', `No ${label} with id ${JSON.stringify(id)}`);
    return doc;
  }

  insert(doc: T): T {
    statement(this.db, 'INSERT INTO docs (kind, id, seq, data) VALUES (?, ?, ?, ?)').run(
      this.kind,
      String(doc[this.idField]),
      this.nextSeq(),
      JSON.stringify(doc),
    );
    return doc;
  }

  /** Inserts in order (the last one is the newest), in one transaction with one sequence reservation. */
  insertMany(docs: readonly T[]): void {
    if (docs.length === 0) return;
    const stmt = statement(this.db, 'INSERT INTO docs (kind, id, seq, data) VALUES (?, ?, ?, ?)');
    this.db.transaction(() => {
      const first = this.nextSeq(docs.length) - docs.length + 1;
      docs.forEach((doc, i) => stmt.run(this.kind, String(doc[this.idField]), first + i, JSON.stringify(doc)));
    })();
  }

  /** Replaces the stored document (its list position is kept). */
  put(doc: T): T {
    const changes = statement(this.db, 'UPDATE docs SET data = ? WHERE kind = ? AND id = ?').run(
      JSON.stringify(doc),
      this.kind,
      String(doc[this.idField]),
    ).changes;
    if (changes === 0) this.insert(doc);
    return doc;
  }

  /** Applies `change` to the stored document in one transaction and returns the result. */
  update(id: string, change: (doc: T) => T): T {
    return this.db.transaction(() => this.put(change(this.require(id))))();
  }

  delete(id: string): boolean {
    return statement(this.db, 'DELETE FROM docs WHERE kind = ? AND id = ?').run(this.kind, id).changes > 0;
  }

  /** Removes every document of this kind (reset to the seed). */
  clear(): number {
    return statement(this.db, 'DELETE FROM docs WHERE kind = ?').run(this.kind).changes;
  }

  all(where: ListOptions['where'] = {}): T[] {
    const { sql, args } = this.whereSql(where);
    return (
      statement(this.db, `SELECT data FROM docs WHERE kind = ?${sql} ORDER BY seq DESC`).all(this.kind, ...args) as {
        data: string;
      }[]
    ).map((r) => JSON.parse(r.data) as T);
  }

  count(where: ListOptions['where'] = {}): number {
    const { sql, args } = this.whereSql(where);
    return (
      statement(this.db, `SELECT count(*) AS n FROM docs WHERE kind = ?${sql}`).get(this.kind, ...args) as { n: number }
    ).n;
  }

  /**
   * The `limit` documents with the greatest `field` (an ISO time sorts as text), newest stored first among
   * equals: one bounded read, no cursor (the console's conversations by latest activity).
   */
  latest(field: string, limit: number): T[] {
    if (!FIELD.test(field) || !FIELD.test(this.kind)) throw new TypeError(`Invalid sort field ${field}`);
    // Named, since the planner prefers docs_kind_seq's equality and sorts every row (67 ms against 0.03 for the
    // newest 20 of 20,000 conversations); the kind as a literal, which a partial index needs.
    const index = ORDER_INDEXES[`${this.kind}.${field}`];
    const rows = statement(
      this.db,
      `SELECT data FROM docs ${index ? `INDEXED BY ${index} ` : ''}WHERE kind = '${this.kind}'
       ORDER BY json_extract(data, '$.${field}') DESC, seq DESC LIMIT ?`,
    ).all(limit) as { data: string }[];
    return rows.map((r) => JSON.parse(r.data) as T);
  }

  /** A newest-first page with an opaque cursor (docs/keys-and-limits.md). */
  list(options: ListOptions = {}): Page<T> {
    const limit = options.limit ?? PAGE_DEFAULT_LIMIT;
    const { sql, args } = this.whereSql(options.where ?? {});
    let before = this.positionOf(options.cursor);
    if (!options.filter) {
      const { rows, pagination } = this.pageRows(limit, before, sql, args);
      return { data: rows.map((data) => JSON.parse(data) as T), pagination };
    }
    const data: T[] = [];
    let lastSeq = 0;
    let hasMore = false;
    const stmt = this.pageStatement(sql);
    // Scans in bounded batches so a JS-side filter cannot load a whole table at once.
    for (;;) {
      const rows = stmt.all(this.kind, before, ...args, limit + 1) as [number, string][];
      for (const [seq, text] of rows) {
        const doc = JSON.parse(text) as T;
        if (!options.filter(doc)) continue;
        if (data.length === limit) {
          hasMore = true;
          break;
        }
        data.push(doc);
        lastSeq = seq;
      }
      if (hasMore || rows.length <= limit) break;
      before = rows[rows.length - 1]![0];
    }
    return { data, pagination: this.pagination(hasMore, lastSeq) };
  }

  /**
   * list() as the JSON text of the page, the same bytes JSON.stringify of list() gives: the documents are
   * stored as JSON text, so they are sent without a parse and a stringify each, and a page is kept until a
   * document of its kind is written (kind-versions.ts), so a page asked for again is not read again (issue 25,
   * point 8).
   */
  listJson(options: Omit<ListOptions, 'filter'> = {}): JsonText<Page<T>> {
    const limit = options.limit ?? PAGE_DEFAULT_LIMIT;
    const { sql, args } = this.whereSql(options.where ?? {});
    const before = this.positionOf(options.cursor);
    const text = keptPages(this.db, [this.kind], JSON.stringify([limit, before, sql, args]), () => {
      const { rows, pagination } = this.pageRows(limit, before, sql, args);
      return `{"data":[${rows.join(',')}],"pagination":${JSON.stringify(pagination)}}`;
    });
    return new JsonText(text);
  }

  /** The stored text of a page's documents, newest first, and its pagination. */
  private pageRows(
    limit: number,
    before: number,
    whereSql: string,
    args: unknown[],
  ): { rows: string[]; pagination: Pagination } {
    const found = this.pageStatement(whereSql).all(this.kind, before, ...args, limit + 1) as [number, string][];
    const hasMore = found.length > limit;
    if (hasMore) found.pop();
    return { rows: found.map((row) => row[1]), pagination: this.pagination(hasMore, found.at(-1)?.[0] ?? 0) };
  }

  /** `[seq, data]` rows (raw: arrays rather than an object per row) below a position, newest first. */
  private pageStatement(whereSql: string): Database.Statement {
    return statement(
      this.db,
      `SELECT seq, data FROM docs WHERE kind = ? AND seq < ?${whereSql} ORDER BY seq DESC LIMIT ?`,
    ).raw(true);
  }

  private positionOf(cursor: string | undefined): number {
    return cursor ? decodeListCursor(this.kind, cursor) : Number.MAX_SAFE_INTEGER;
  }

  private pagination(hasMore: boolean, lastSeq: number): Pagination {
    return { has_more: hasMore, next_cursor: hasMore ? encodeSeqCursor(this.kind, lastSeq) : null };
  }

  private whereSql(where: NonNullable<ListOptions['where']>): { sql: string; args: unknown[] } {
    let sql = '';
    const args: unknown[] = [];
    for (const [field, value] of Object.entries(where)) {
      if (value === undefined) continue;
      if (!FIELD.test(field)) throw new TypeError(`Invalid filter field ${field}`);
      if (value === null) {
        sql += ` AND json_extract(data, '$.${field}') IS NULL`;
      } else {
        sql += ` AND json_extract(data, '$.${field}') = ?`;
        args.push(typeof value === 'boolean' ? (value ? 1 : 0) : value);
      }
    }
    return { sql, args };
  }
}
