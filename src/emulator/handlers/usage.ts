import type { endpoints } from '../../api/endpoints/index.js';
import type { RouteHandlers } from '../route-handler.js';
import { usageOf } from '../domain/usage/usage.js';

export const usageHandlers = {
  get: ({ key }, ctx) => usageOf(ctx, key),
} satisfies RouteHandlers<typeof endpoints.usage>;
