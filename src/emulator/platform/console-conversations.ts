import type { Request, Response } from 'express';
import { z } from 'zod';
import { queryInteger } from '../../api/schemas/common.js';
import { stores } from '../state/stores.js';
import type { EmulatorServices } from './emulator-services.js';
import { requireAdmin, sendControlError } from './require-admin.js';
import { validateRequest } from './validate-request.js';

/** Where the console reads its conversations (its panel in console/emulator-console/console-panels.ts). */
export const CONSOLE_CONVERSATIONS_PATH = '/_emulator/console/conversations';

const ConsoleConversationsQuery = z.strictObject({ limit: queryInteger(1, 100).default(20) });

/**
 * `GET /_emulator/console/conversations`: the conversations with the latest activity first, as the console's
 * list says. The contract's list is by creation (its cursor must not skip a conversation whose activity
 * changes), so the console has this read of its own, behind the gate of every /_emulator route (requireAdmin).
 */
export function consoleConversations(platform: EmulatorServices) {
  return (req: Request, res: Response): void => {
    try {
      requireAdmin(req, platform.keys);
      const { query } = validateRequest(
        { query: ConsoleConversationsQuery },
        { params: {}, query: req.query, body: undefined, headers: {} },
      ) as { query: z.output<typeof ConsoleConversationsQuery> };
      res.json({ data: stores(platform.ctx.db).conversations.latest('latest_activity_at', query.limit) });
    } catch (error) {
      sendControlError(res, error, platform.logger, CONSOLE_CONVERSATIONS_PATH);
    }
  };
}
