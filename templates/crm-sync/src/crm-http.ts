import { isApiError, InvalidInputError } from 'convo-kit/client';
import { type CrmContext } from './crm-context.js';
import { type ContactChanges, editContact, moveLeadStage, OptedOutError, sendToConversation } from './crm-actions.js';
import {
  CRM_PAGE_HEADERS,
  CRM_PAGE_SCRIPT_PATH,
  crmPage,
  crmPageScript,
  type PageLink,
  type Panel,
} from './crm-page.js';
import { getContact, listActivity, listContacts, listConversations } from './crm-queries.js';
import { HttpError, readJsonObject, type Route, sendJson } from './http-json.js';
import { WindowClosedError } from './window-closed-template.js';

const CONTACT_PATH = /^\/api\/contacts\/([\w-]{1,100})$/;
const MESSAGES_PATH = /^\/api\/conversations\/([\w-]{1,100})\/messages$/;
const LEAD_STAGE_PATH = /^\/api\/leads\/([\w-]{1,100})\/stage$/;

/**
 * The CRM's own HTTP API and page: read contacts, conversations and the timeline; edit a contact,
 * move a lead and reply (these go through the service). Errors from the service keep their code.
 */
export function crmRoutes(
  ctx: CrmContext,
  options: { title?: string; panels?: Panel[]; links?: PageLink[] } = {},
): Route {
  return async (req, res, url) => {
    const path = url.pathname;
    if (req.method === 'GET' && path === '/') {
      res.writeHead(200, CRM_PAGE_HEADERS);
      res.end(crmPage(options.title ?? 'CRM', options.panels, options.links));
      return true;
    }
    if (req.method === 'GET' && path === CRM_PAGE_SCRIPT_PATH) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'x-content-type-options': 'nosniff' });
      res.end(crmPageScript);
      return true;
    }
    if (req.method === 'GET' && path === '/api/contacts') return json(res, { data: listContacts(ctx.db) });
    if (req.method === 'GET' && path === '/api/conversations') return json(res, { data: listConversations(ctx.db) });
    if (req.method === 'GET' && path === '/api/activity') {
      return json(res, {
        data: listActivity(ctx.db, {
          contactId: url.searchParams.get('contact_id') ?? undefined,
          limit: Number(url.searchParams.get('limit') ?? 100) || 100,
        }),
      });
    }
    const contact = CONTACT_PATH.exec(path);
    if (contact && req.method === 'GET') {
      const row = getContact(ctx.db, contact[1]);
      if (!row) throw new HttpError(404, 'NOT_FOUND', `No contact ${contact[1]} in the CRM`);
      return json(res, { ...row, activity: listActivity(ctx.db, { contactId: row.id, limit: 50 }) });
    }
    if (contact && req.method === 'PATCH') {
      const body = await readJsonObject(req);
      return json(res, await service(() => editContact(ctx, contact[1], contactChanges(body))));
    }
    const lead = LEAD_STAGE_PATH.exec(path);
    if (lead && req.method === 'POST') {
      const { stage } = await readJsonObject(req);
      if (typeof stage !== 'string') throw new HttpError(400, 'VALIDATION_FAILED', 'stage: expected a stage id string');
      return json(res, await service(() => moveLeadStage(ctx, lead[1], stage)));
    }
    const messages = MESSAGES_PATH.exec(path);
    if (messages && req.method === 'POST') {
      const { content } = await readJsonObject(req);
      if (typeof content !== 'string') throw new HttpError(400, 'VALIDATION_FAILED', 'content: expected a string');
      return json(res, await service(() => sendToConversation(ctx, messages[1], content)), 201);
    }
    return false;
  };
}

function json(res: Parameters<Route>[1], body: unknown, status = 200): true {
  sendJson(res, status, body);
  return true;
}

/** The editable fields, each checked, so a typo is a 400 naming the field rather than a silent no-op. */
function contactChanges(body: Record<string, unknown>): ContactChanges {
  const changes: ContactChanges = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === 'name' && typeof value === 'string') changes.name = value;
    else if (key === 'lead_stage' && typeof value === 'string') changes.lead_stage = value;
    else if (key === 'email' && (typeof value === 'string' || value === null)) changes.email = value;
    else
      throw new HttpError(
        400,
        'VALIDATION_FAILED',
        `${key}: expected name (string), email (string or null) or lead_stage (string)`,
      );
  }
  if (Object.keys(changes).length === 0)
    throw new HttpError(400, 'VALIDATION_FAILED', 'Send at least one of name, email, lead_stage');
  return changes;
}

/** Maps what the service (or the opt-out guard) refused to a 4xx the page can show. */
async function service<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof OptedOutError || error instanceof WindowClosedError)
      throw new HttpError(422, error.code, error.message);
    // The client checks input against the contract before sending: a bad email never leaves the CRM.
    if (error instanceof InvalidInputError) throw new HttpError(400, 'VALIDATION_FAILED', error.message);
    if (isApiError(error) && error.status < 500) throw new HttpError(error.status, error.code, error.message);
    throw error;
  }
}
