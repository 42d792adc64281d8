import { usageOf } from '../domain/usage.js';
import type { ImplementedHandlers } from '../platform/pending.js';

export const usageHandlers = {
  get: ({ key }, ctx) => usageOf(ctx, key),
} satisfies ImplementedHandlers<'usage'>;
