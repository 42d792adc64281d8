import type { RouteHandlerTable } from '../route-handler.js';
import { analyticsHandlers } from './analytics.js';
import { automationsHandlers } from './automations.js';
import { campaignsHandlers } from './campaigns.js';
import { eventsHandlers } from './events.js';
import { journeysHandlers } from './journeys.js';
import { triggerHandlers } from './trigger.js';
import { channelsHandlers } from './channels.js';
import { commentsHandlers } from './comments.js';
import { contactsHandlers } from './contacts.js';
import { conversationsHandlers } from './conversations.js';
import { developerHandlers } from './developer.js';
import { groupsHandlers } from './groups.js';
import { keysHandlers } from './keys.js';
import { messagesHandlers } from './messages.js';
import { pipelineHandlers } from './pipeline.js';
import { statusHandlers } from './status.js';
import { ticketsHandlers } from './tickets.js';
import { usageHandlers } from './usage.js';
import { templatesHandlers } from './templates.js';
import { webhooksHandlers } from './webhooks.js';

/** One handler object per group of the contract; a missing group or route fails to compile. */
export const handlers = {
  conversations: conversationsHandlers,
  messages: messagesHandlers,
  tickets: ticketsHandlers,
  contacts: contactsHandlers,
  pipeline: pipelineHandlers,
  channels: channelsHandlers,
  groups: groupsHandlers,
  analytics: analyticsHandlers,
  usage: usageHandlers,
  developer: developerHandlers,
  keys: keysHandlers,
  webhooks: webhooksHandlers,
  status: statusHandlers,
  templates: templatesHandlers,
  journeys: journeysHandlers,
  trigger: triggerHandlers,
  events: eventsHandlers,
  campaigns: campaignsHandlers,
  comments: commentsHandlers,
  automations: automationsHandlers,
} satisfies RouteHandlerTable;
