import { z } from 'zod';
import { Channel, Timestamp } from './common.js';

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
