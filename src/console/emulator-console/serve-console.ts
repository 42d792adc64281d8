import type { IncomingMessage, ServerResponse } from 'node:http';
import { localRequestRefusal } from '../local-only.js';
import { sendError, sendPage } from '../serve-page.js';
import { consolePage } from './console-page.js';

/**
 * `GET /_emulator/console`: the page holds no data of its own (its script asks the emulator with the admin
 * key), and it answers this machine only, whatever interface the emulator listens on.
 */
export function serveConsole(req: IncomingMessage, res: ServerResponse): void {
  const refused = localRequestRefusal(req, { page: 'console' });
  if (refused !== undefined) return sendError(res, refused.status, refused.code, refused.message);
  sendPage(res, consolePage());
}
