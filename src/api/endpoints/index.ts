import { analytics } from './analytics.js';
import { automations } from './automations.js';
import { campaigns } from './campaigns.js';
import { channels } from './channels.js';
import { comments } from './comments.js';
import { contacts } from './contacts.js';
import { conversations } from './conversations.js';
import { developer } from './developer.js';
import { events } from './events.js';
import { groups } from './groups.js';
import { journeys } from './journeys.js';
import { keys } from './keys.js';
import { messages } from './messages.js';
import { pipeline } from './pipeline.js';
import { status } from './status.js';
import { templates } from './templates.js';
import { tickets } from './tickets.js';
import { trigger } from './trigger.js';
import { usage } from './usage.js';
import { webhooks } from './webhooks.js';

/** Every route of the service, by group: `endpoints.tickets.update` is the route `tickets.update`. */
export const endpoints = {
  conversations,
  messages,
  tickets,
  contacts,
  pipeline,
  channels,
  groups,
  analytics,
  usage,
  status,
  developer,
  keys,
  webhooks,
  journeys,
  trigger,
  events,
  campaigns,
  templates,
  automations,
  comments,
};

export type Endpoints = typeof endpoints;
