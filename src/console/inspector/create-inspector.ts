import type { IncomingMessage, ServerResponse } from 'node:http';
import { ZodError, type z } from 'zod';
import { localRequestRefusal, type PageAccess } from '../local-only.js';
import { browserModule } from '../browser-modules.js';
import { mountPath, readJsonBody, sendError, sendJson, sendModule, sendPage } from '../serve-page.js';
import {
  InspectorListQuery,
  listDeliveries,
  replayDeliveries,
  ReplayRequest,
  showDelivery,
  type InspectorSource,
} from './inspector-api.js';
import { DELIVERY_ID } from '../../signature/constants.js';
import { DeliveryStoreError } from '../../store/index.js';
import { INSPECTOR_ASSETS, inspectorPage, queryErrorPage } from './inspector-page.js';
import { tokenCookie, tokenFromCookie } from './token-cookie.js';
import { INSPECTOR_TOKEN_MIN_CHARS } from './inspector-token.js';
import { issueText } from '../../internal/issue-text.js';
import { InvalidOptionError } from '../../errors.js';

/** Where `convo-kit listen` and the starters mount the inspector (an app of your own may mount it anywhere). */
export const INSPECTOR_PATH = '/_inspector';

export interface InspectorOptions {
  /**
   * Lets other machines open the inspector when they present this token (`Authorization: Bearer …`, or
   * `?token=` on the page's address, which the page then keeps in a cookie and drops from the address).
   * Without it the inspector answers this machine only.
   */
  token?: string;
}

/** A node:http / Express handler; Express's `next` is accepted and never needed. */
export type InspectorHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

/** A replay of REPLAY_MAX_IDS ids of the longest kind (200 characters) is about 20 KiB. */
const MAX_REQUEST_BYTES = 32 * 1024;
const DELIVERY_PATH = /^\/api\/deliveries\/([^/]{1,600})$/;

/** The id a delivery's path names, percent-decoded (the page encodes it: a `:` arrives as %3A); null when it is no delivery id. */
function deliveryIdIn(segment: string): string | null {
  try {
    const id = decodeURIComponent(segment);
    return DELIVERY_ID.test(id) ? id : null;
  } catch {
    return null;
  }
}

function firstIssue(error: z.ZodError, whole = 'the query'): string {
  return issueText(error.issues[0]!, whole);
}

/** A cursor that is no page of this list is the asker's mistake, not a store that cannot answer: it is named. */
function cursorIssue(error: unknown): string | undefined {
  return error instanceof DeliveryStoreError && error.code === 'INVALID_CURSOR'
    ? `cursor: ${error.message}`
    : undefined;
}

/**
 * The list filters an address names; `token` is how a page's address carries access, not a filter. A filter
 * given twice (`status=dead&status=done`) is refused: which one was meant cannot be known.
 */
function listQueryIn(query: URLSearchParams) {
  const twice = [...new Set(query.keys())].find((name) => query.getAll(name).length > 1);
  if (twice !== undefined) {
    const issue = {
      code: 'custom' as const,
      path: [twice],
      message: 'given more than once',
      input: query.getAll(twice),
    };
    return { success: false as const, error: new ZodError([issue]) };
  }
  const filters = Object.fromEntries([...query].filter(([name]) => name !== 'token'));
  return InspectorListQuery.safeParse(filters);
}

/**
 * The delivery inspector: a page and a small JSON API over the receiver's store. Mount it where you like
 * (`app.use('/_inspector', receiver.inspector())`); it answers only this machine unless given a token.
 */
export function createInspector(source: InspectorSource, options: InspectorOptions = {}): InspectorHandler {
  if (options.token !== undefined && options.token.length < INSPECTOR_TOKEN_MIN_CHARS) {
    throw new InvalidOptionError(
      `inspector({ token }) needs a token of at least ${INSPECTOR_TOKEN_MIN_CHARS} characters`,
    );
  }
  const access: PageAccess =
    options.token === undefined ? { kind: 'loopback' } : { kind: 'token', token: options.token };

  async function route(req: IncomingMessage & { originalUrl?: string }, res: ServerResponse): Promise<void> {
    const { base, path, query } = mountPath(req);
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const fromAddress = query.get('token') ?? undefined;
    const token = bearer ?? fromAddress ?? tokenFromCookie(req);
    const refused = localRequestRefusal(req, { page: 'inspector', access, token });
    if (refused !== undefined) {
      req.resume();
      return sendError(res, refused.status, refused.code, refused.message);
    }
    if (req.method === 'GET' && (path === '/' || path === '')) {
      // The address's token goes on in a cookie, so the page can drop it from the address (token-cookie.ts).
      const kept = access.kind === 'token' && bearer === undefined ? fromAddress : undefined;
      const setCookie = kept === undefined ? undefined : tokenCookie(req, kept, base);
      if (setCookie !== undefined) res.setHeader('set-cookie', setCookie);
      // A filter it cannot read is refused as the JSON side refuses it, never shown as the unfiltered list.
      const refuse = (message: string) => sendPage(res, queryErrorPage({ base, message }), 400);
      const parsed = listQueryIn(query);
      if (!parsed.success) return refuse(firstIssue(parsed.error));
      let first;
      try {
        first = await listDeliveries(source, parsed.data);
      } catch (error) {
        const issue = cursorIssue(error);
        if (issue === undefined) throw error;
        return refuse(issue);
      }
      return sendPage(res, inspectorPage({ base, first }));
    }
    if (req.method === 'GET' && path.startsWith(INSPECTOR_ASSETS)) {
      const javascript = await browserModule(path.slice(INSPECTOR_ASSETS.length));
      if (javascript !== undefined) return sendModule(res, javascript);
    }
    if (req.method === 'GET' && path === '/api/deliveries') {
      const parsed = listQueryIn(query);
      if (!parsed.success) return sendError(res, 400, 'VALIDATION_FAILED', firstIssue(parsed.error));
      return sendJson(res, 200, await listDeliveries(source, parsed.data));
    }
    const one = DELIVERY_PATH.exec(path);
    if (req.method === 'GET' && one) {
      const id = deliveryIdIn(one[1]!);
      if (id === null) {
        return sendError(res, 400, 'VALIDATION_FAILED', 'id: expected 1-200 letters, digits and . _ : -');
      }
      const delivery = await showDelivery(source, id);
      return delivery ? sendJson(res, 200, delivery) : sendError(res, 404, 'NOT_FOUND', `No delivery ${id}`);
    }
    if (req.method === 'POST' && path === '/api/replay') {
      const body = await readJsonBody(req, MAX_REQUEST_BYTES);
      if (!body.ok) return sendError(res, body.status, body.code, body.message);
      const parsed = ReplayRequest.safeParse(body.value);
      if (!parsed.success) return sendError(res, 400, 'VALIDATION_FAILED', firstIssue(parsed.error, 'body'));
      return sendJson(res, 200, await replayDeliveries(source, parsed.data.ids));
    }
    req.resume();
    sendError(res, 404, 'NOT_FOUND', `No inspector route ${req.method} ${path}`);
  }

  return (req, res) => {
    route(req, res).catch((error: unknown) => {
      if (res.headersSent) return res.destroy();
      const issue = cursorIssue(error);
      if (issue !== undefined) return sendError(res, 400, 'VALIDATION_FAILED', issue);
      sendError(
        res,
        503,
        'STORE_UNAVAILABLE',
        `The delivery store could not answer: ${(error as Error).message.slice(0, 200)}`,
      );
    });
  };
}
