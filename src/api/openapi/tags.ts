import type { EndpointGroupName } from '../all-endpoints.js';

/**
 * One OpenAPI tag per group of the contract table, with what the group is for. Keyed by the table's
 * group names, so a new group does not compile until it has a description here.
 */
export const GROUP_TAGS: Readonly<Record<EndpointGroupName, string>> = {
  conversations: 'Conversations with customers on the three channels, their message history and replies',
  messages: 'Messages sent and received, free-text sends with an Idempotency-Key, and reactions',
  tickets: 'Support tickets from handoffs and reviews; updates may use If-Match for optimistic concurrency',
  contacts: 'Contacts with their channel identities, lead stage and opt-out state',
  pipeline: 'Leads on the sales pipeline and its stages',
  channels: 'Connected accounts (phone, photo_social, social_page), their AI switches and provider overrides',
  groups: 'Channel groups: shared AI configuration, knowledge entries and AI providers',
  analytics: 'Response-time, volume and conversion summaries',
  usage: 'Plan tier, rate-limit headroom and usage of the calling workspace',
  status: 'Health of the service and its dependencies, without authentication',
  developer: 'What the calling key can do, the integration checklist, limits and error explanations',
  keys: 'API keys: create, rotate and revoke; values are shown only once',
  webhooks: 'Webhook endpoints, their delivery attempts, journey sends and test signatures',
  journeys: 'Journeys: steps of approved templates with delays, activated or paused',
  trigger: 'Enrolling phones into journeys, dry runs, batches, history and delivery outcomes',
  events: 'External business events that enroll phones into the journeys mapped to them',
  campaigns: 'Broadcast campaigns of an approved template, drafted, scheduled and sent',
  templates: "Message templates, their validation and the provider's review",
  automations: 'Automations and their explicit triggers',
  comments: 'Tracked social comments, replies and the org-wide comment automation settings',
};
