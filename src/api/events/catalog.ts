import { z } from 'zod';
import { Contact } from '../schemas/contact.js';
import { Conversation } from '../schemas/conversation.js';
import { Message, MessageSource } from '../schemas/message.js';
import { TemplateCategory, TemplateQuality, TemplateStatus } from '../schemas/template.js';
import { Ticket } from '../schemas/ticket.js';

const changedFields = z.array(z.string());

/** Every event the service sends, keyed by name, with the zod schema of its `data` (docs/webhook-deliveries.md). */
export const eventSchemas = {
  'message.received': Message,
  'message.sent': Message.extend({
    source: MessageSource,
    /** The automation whose run sent it, when `source` is `automation` (docs/automations.md). */
    automation_id: z.string().optional(),
  }),
  'message.delivery_failed': z.looseObject({
    template_name: z.string().nullable(),
    error_code: z.string(),
    error_reason: z.string(),
    throttled: z.boolean(),
    message_id: z.string(),
    conversation_id: z.string(),
    integration_id: z.string(),
  }),
  'conversation.created': Conversation.extend({ origin: z.enum(['inbound', 'coexistence', 'journey']) }),
  'conversation.closed': Conversation.extend({ closed_by: z.enum(['agent', 'automation']) }),
  'conversation.assigned': Conversation.extend({
    previous_assignee: z.string().nullable(),
    assigned_by: z.enum(['agent', 'routing_rule']),
  }),
  'contact.updated': Contact.extend({
    changed_fields: changedFields,
    source: z.enum(['lead_extraction', 'crm_sync', 'api']),
  }),
  'contact.opted_out': Contact.extend({ keyword: z.string().nullable() }),
  'contact.opted_in': Contact.extend({ keyword: z.string().nullable() }),
  'template.status_update': z.looseObject({
    template_id: z.string(),
    template_name: z.string(),
    status: TemplateStatus,
    category: TemplateCategory,
    quality: TemplateQuality,
    reason: z.string().nullable(),
  }),
  'ticket.created': Ticket,
  'ticket.updated': Ticket.extend({ changed_fields: changedFields }),
  'ticket.assigned': Ticket,
  'ticket.closed': Ticket,
} as const;

export type EventSchemas = typeof eventSchemas;
export type EventName = keyof EventSchemas;
export type EventData<N extends EventName> = z.output<EventSchemas[N]>;

export const EVENT_NAMES = Object.keys(eventSchemas) as EventName[];

export function isEventName(name: string): name is EventName {
  return Object.hasOwn(eventSchemas, name);
}

/**
 * What must hold to store and route a delivery: a JSON object with an `event` string and a `data` object.
 * Everything else is checked per event at dispatch, so an unseen shape is kept, never refused at the door.
 */
export const Envelope = z.looseObject({
  id: z.string().optional(),
  event: z.string().min(1),
  created_at: z.string().optional(),
  data: z.record(z.string(), z.unknown()),
});
export type Envelope = z.output<typeof Envelope>;
