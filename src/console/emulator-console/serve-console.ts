import type { IncomingMessage, ServerResponse } from 'node:http';
import { browserModule } from '../browser-modules.js';
import { localRequestRefusal } from '../local-only.js';
import { sendError, sendModule, sendPage } from '../serve-page.js';
import { CONSOLE_ASSETS, consolePage } from './console-page.js';

/**
 * `GET /_emulator/console`: the page holds no data of its own (its script asks the emulator with the admin
 * key), and it answers this machine only, whatever interface the emulator listens on.
 */
export function serveConsole(req: IncomingMessage, res: ServerResponse): void {
  const refused = localRequestRefusal(req, { page: 'console' });
  if (refused !== undefined) return sendError(res, refused.status, refused.code, refused.message);
  sendPage(res, consolePage());
}

/** `GET /_emulator/console/assets/<module>.js`: the console's browser modules, to this machine only as the page. */
export function serveConsoleModule(req: IncomingMessage, res: ServerResponse): void {
  const refused = localRequestRefusal(req, { page: 'console' });
  if (refused !== undefined) return sendError(res, refused.status, refused.code, refused.message);
  const name = new URL(req.url ?? '/', 'http://console.local').pathname.slice(CONSOLE_ASSETS.length);
  browserModule(name).then(
    (javascript) =>
      javascript === undefined
        ? sendError(res, 404, 'NOT_FOUND', `No console module ${name}`)
        : sendModule(res, javascript),
    (error: unknown) => sendError(res, 500, 'INTERNAL_ERROR', (error as Error).message),
  );
}
