import { z } from 'zod';
import { queryInteger } from './common.js';

/** The page size of a list route called without `limit` (docs/keys-and-limits.md). */
export const PAGE_DEFAULT_LIMIT = 25;

/** Query of every list route (docs/keys-and-limits.md): `limit` 1-100 (default 25), `cursor` opaque, passed back as received. */
export const PageQuery = z.object({
  limit: queryInteger(1, 100).optional(),
  cursor: z.string().min(1).max(1024).optional(),
});

export const Pagination = z.object({ has_more: z.boolean(), next_cursor: z.string().nullable() });
export type Pagination = z.output<typeof Pagination>;

/** One page of a list answer, as `page(item)` declares it: what the emulator answers and the client walks. */
export interface Page<Item> {
  data: Item[];
  pagination: Pagination;
}

/** `{ data: [...], pagination: { has_more, next_cursor } }`, newest first. */
export function page<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), pagination: Pagination });
}
