import type { endpoints } from '../../api/endpoints/index.js';
import type { RouteHandlers } from '../route-handler.js';
import { reply } from '../route-handler.js';
import { errorRate } from '../state/request-stats.js';
import { statement } from '../state/statement.js';

export const statusHandlers = {
  /** 200 when the database answers, 503 with the same body naming it when it does not. */
  get: (_req, ctx) => {
    let rate: number | null = null;
    let database: 'ok' | 'degraded' = 'ok';
    try {
      statement(ctx.db, 'SELECT 1').get();
      rate = errorRate(ctx.db, ctx.clock.now());
    } catch {
      database = 'degraded';
    }
    // The emulator's only cache is in process memory (rate-limit windows, in-flight keys): up while it answers.
    const body = {
      status: database,
      dependencies: { database, cache: 'ok' as const },
      error_rate: rate,
      checked_at: ctx.clock.iso(),
    };
    return reply<typeof endpoints.status.get>(database === 'ok' ? 200 : 503, body);
  },
} satisfies RouteHandlers<typeof endpoints.status>;
