import { z } from 'zod';
import { Channel, Platform, text, Timestamp } from './common.js';
import { PageQuery } from './page.js';

export const ConversationStatus = z.enum(['active', 'snoozed', 'closed']);

export const Routing = z.object({ team: z.string().nullable(), queue: z.string().nullable() });

export const Conversation = z.looseObject({
  id: z.string(),
  contact_id: z.string(),
  customer: z.object({ name: z.string().nullable(), handle: z.string() }),
  channel: Channel,
  integration_id: z.string(),
  stage: z.string(),
  status: ConversationStatus,
  assignee: z.string().nullable(),
  tags: z.array(z.string()),
  routing: Routing,
  last_message_preview: z.string().nullable(),
  latest_activity_at: Timestamp,
  /** Phone channel only; null elsewhere. */
  service_window_expires_at: Timestamp.nullable(),
  created_at: Timestamp,
});
export type Conversation = z.output<typeof Conversation>;

/** Filters of GET /v1/conversations. */
export const ConversationListQuery = PageQuery.extend({
  status: ConversationStatus.optional(),
  channel: Platform.optional(),
  assignee: text(100).optional(),
});

const Tag = text(64);

export const ConversationUpdate = z.strictObject({
  status: ConversationStatus.optional(),
  assignee: text(100).nullable().optional(),
  /** Replaces the tag list. */
  tags: z.array(Tag).max(50).optional(),
  stage: text(64).optional(),
  routing: z.strictObject({ team: text(100).nullable().optional(), queue: text(100).nullable().optional() }).optional(),
});
