import type { Page } from '../api/schemas/page.js';
import { ApiPromise, type WithResponse } from './api-promise.js';
import { type ClientLogger } from './client-logger.js';

export interface PageWalk<P> {
  endpoint: string;
  /** The cursor the caller started from, if any: handed back, it means the service went round. */
  startCursor: string | null;
  /** Fetches the page after `cursor` with the call's own filters; the cursor goes back exactly as received. */
  next(cursor: string): Promise<WithResponse<P>>;
  maxPages: number;
  logger: ClientLogger;
}

/**
 * A paginated method's result: awaiting it gives the first page (`{ data, pagination }`); iterating it
 * with `for await` yields every item of every page; `.pages()` yields the pages. The walk stops when
 * `has_more` is false, `next_cursor` is null or repeats (a service bug would loop forever), or after `maxPages`.
 */
export class PagePromise<Item, P extends Page<Item> = Page<Item>> extends ApiPromise<P> implements AsyncIterable<Item> {
  readonly #walk: PageWalk<P>;

  constructor(first: Promise<WithResponse<P>>, walk: PageWalk<P>) {
    super(first);
    this.#walk = walk;
  }

  async *pages(): AsyncGenerator<P, void, undefined> {
    const { endpoint, maxPages, logger, startCursor } = this.#walk;
    let page = (await this.withResponse()).data;
    const seen = new Set<string>(startCursor === null ? [] : [startCursor]);
    for (let count = 1; ; count++) {
      yield page;
      const { has_more, next_cursor } = page.pagination;
      if (!has_more) return;
      if (next_cursor === null) {
        logger.warn({ endpoint, pages: count }, 'convo-kit pagination stopped: has_more without a next_cursor');
        return;
      }
      if (seen.has(next_cursor)) {
        logger.warn({ endpoint, pages: count }, 'convo-kit pagination stopped: the service repeated a cursor');
        return;
      }
      if (count >= maxPages) {
        logger.warn({ endpoint, pages: count }, 'convo-kit pagination stopped at maxPages; more pages remain');
        return;
      }
      seen.add(next_cursor);
      page = (await this.#walk.next(next_cursor)).data;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }
}
