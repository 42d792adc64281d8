import { z } from 'zod';
import * as errorCodes from '../error-codes.js';
import * as apiKey from '../schemas/api-key.js';
import * as automation from '../schemas/automation.js';
import * as businessEvent from '../schemas/business-event.js';
import * as campaign from '../schemas/campaign.js';
import * as channelGroup from '../schemas/channel-group.js';
import * as comment from '../schemas/comment.js';
import * as common from '../schemas/common.js';
import * as connectedAccount from '../schemas/connected-account.js';
import * as contact from '../schemas/contact.js';
import * as conversation from '../schemas/conversation.js';
import * as customReply from '../schemas/custom-reply.js';
import * as developer from '../schemas/developer.js';
import * as ifMatch from '../schemas/if-match.js';
import * as insights from '../schemas/insights.js';
import * as journey from '../schemas/journey.js';
import * as knowledgeEntry from '../schemas/knowledge-entry.js';
import * as lead from '../schemas/lead.js';
import * as message from '../schemas/message.js';
import * as page from '../schemas/page.js';
import * as providerConfig from '../schemas/provider-config.js';
import * as template from '../schemas/template.js';
import * as ticket from '../schemas/ticket.js';
import * as trigger from '../schemas/trigger.js';
import * as webhookEndpoint from '../schemas/webhook-endpoint.js';

/**
 * The modules of `src/api/schemas`, by file name (a test checks the list against the folder). Every zod
 * schema one of them exports is a named component of the document, under its export name; so is each of
 * `error-codes.ts` (the envelope and the shapes of `details`).
 */
export const SCHEMA_MODULES: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  'api-key': apiKey,
  automation,
  'business-event': businessEvent,
  campaign,
  'channel-group': channelGroup,
  comment,
  common,
  'connected-account': connectedAccount,
  contact,
  conversation,
  'custom-reply': customReply,
  developer,
  'if-match': ifMatch,
  insights,
  journey,
  'knowledge-entry': knowledgeEntry,
  lead,
  message,
  page,
  'provider-config': providerConfig,
  template,
  ticket,
  trigger,
  'webhook-endpoint': webhookEndpoint,
};

/**
 * Each exported schema and its name. A schema exported under two names (an alias) keeps the first, in
 * file order, so every run names it alike.
 */
export function componentNames(
  modules = { ...SCHEMA_MODULES, 'error-codes': errorCodes },
): ReadonlyMap<z.ZodType, string> {
  const names = new Map<z.ZodType, string>();
  const taken = new Set<string>();
  for (const [file, exports] of Object.entries(modules).sort(([a], [b]) => a.localeCompare(b))) {
    for (const [name, value] of Object.entries(exports)) {
      if (!(value instanceof z.ZodType) || names.has(value)) continue;
      if (taken.has(name))
        throw new TypeError(`Two schemas of src/api/schemas are exported as ${name} (one in ${file}.ts)`);
      names.set(value, name);
      taken.add(name);
    }
  }
  return names;
}
