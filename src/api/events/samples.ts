import { prefixedId } from '../../internal/prefixed-id.js';
import type { Contact } from '../schemas/contact.js';
import type { Conversation } from '../schemas/conversation.js';
import type { Message } from '../schemas/message.js';
import type { Ticket } from '../schemas/ticket.js';
import { EVENT_NAMES, isEventName, type EventData, type EventName } from './catalog.js';
import { InvalidOptionError } from '../../errors.js';

/** The envelope the service POSTs (docs/webhook-deliveries.md), with `data` typed by the event. */
export interface SampleEnvelope<N extends EventName = EventName> {
  id: string;
  event: N;
  created_at: string;
  data: EventData<N>;
}

/** Overrides are deep-merged: objects merge key by key, arrays and other values replace. */
export type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** Makes the id of a new resource from its prefix (`msg` -> `msg_…`). */
type NewId = (prefix: string) => string;

const freshId: NewId = (prefix) => prefixedId(prefix, 9);

function message(now: string, direction: Message['direction'], id: NewId): Message {
  return {
    id: id('msg'),
    conversation_id: 'conv_8Zq2LmW4tY1x',
    integration_id: 'int_phone_01',
    channel: 'phone',
    direction,
    content:
      direction === 'received'
        ? 'Hi! Is the blue jacket still available in medium?'
        : 'Yes, it is. Shall I reserve one for you?',
    media: null,
    buttons: null,
    cta_url: null,
    delivery_status: direction === 'received' ? 'delivered' : 'sent',
    source: direction === 'received' ? null : 'api',
    error: null,
    created_at: now,
  };
}

function conversation(now: string): Conversation {
  return {
    id: 'conv_8Zq2LmW4tY1x',
    contact_id: 'ct_5Hn3Vb7Kp0Qa',
    customer: { name: 'Ada Lovelace', handle: '+14155550123' },
    channel: 'phone',
    integration_id: 'int_phone_01',
    stage: 'new',
    status: 'active',
    assignee: null,
    tags: ['jackets'],
    routing: { team: 'sales', queue: 'inbound' },
    last_message_preview: 'Hi! Is the blue jacket still available in medium?',
    latest_activity_at: now,
    service_window_expires_at: new Date(Date.parse(now) + 24 * 3600 * 1000).toISOString(),
    created_at: now,
  };
}

function contact(now: string, optedOut = false): Contact {
  return {
    id: 'ct_5Hn3Vb7Kp0Qa',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    phone: '+14155550123',
    lead_stage: 'qualified',
    score: 72,
    owner: 'agent_grace',
    identities: [{ channel: 'phone', handle: '+14155550123', integration_id: 'int_phone_01' }],
    opted_out: optedOut,
    created_at: '2025-11-01T09:30:00.000Z',
    updated_at: now,
  };
}

function ticket(now: string, status: Ticket['status'] = 'open', assignee: string | null = null): Ticket {
  return {
    id: 'tkt_3Rf9Wc2Nd6Ue',
    kind: 'handoff',
    status,
    priority: 'high',
    assignee,
    conversation_id: 'conv_8Zq2LmW4tY1x',
    contact_id: 'ct_5Hn3Vb7Kp0Qa',
    subject: 'Customer asks for a human about an order',
    sla_due_at: new Date(Date.parse(now) + 4 * 3600 * 1000).toISOString(),
    resolution: status === 'closed' ? { reason: 'answered', note: 'Order status shared' } : null,
    version: status === 'open' && !assignee ? 1 : 3,
    created_at: '2025-11-21T08:00:00.000Z',
    updated_at: now,
  };
}

/** One realistic `data` per event, each valid against its schema (a test checks every event). */
const SAMPLES: { [N in EventName]: (now: string, id: NewId) => EventData<N> } = {
  'message.received': (now, id) => message(now, 'received', id),
  'message.sent': (now, id) => ({ ...message(now, 'sent', id), source: 'api' }),
  'message.delivery_failed': (_now, id) => ({
    template_name: 'spring_sale',
    error_code: '131049',
    error_reason: 'The provider throttled delivery of this marketing template to the recipient',
    throttled: true,
    message_id: id('msg'),
    conversation_id: 'conv_8Zq2LmW4tY1x',
    integration_id: 'int_phone_01',
  }),
  'conversation.created': (now) => ({ ...conversation(now), origin: 'inbound' }),
  'conversation.closed': (now) => ({ ...conversation(now), status: 'closed', closed_by: 'agent' }),
  'conversation.assigned': (now) => ({
    ...conversation(now),
    assignee: 'agent_grace',
    previous_assignee: null,
    assigned_by: 'routing_rule',
  }),
  'contact.updated': (now) => ({ ...contact(now), changed_fields: ['lead_stage', 'score'], source: 'lead_extraction' }),
  'contact.opted_out': (now) => ({ ...contact(now, true), keyword: 'STOP' }),
  'contact.opted_in': (now) => ({ ...contact(now), keyword: 'START' }),
  'template.status_update': () => ({
    template_id: 'tpl_7Kd2Qw9Zx4Lb',
    template_name: 'order_update',
    status: 'approved',
    category: 'UTILITY',
    quality: 'high',
    reason: null,
  }),
  'ticket.created': (now) => ticket(now),
  'ticket.updated': (now) => ({ ...ticket(now, 'pending', 'agent_grace'), changed_fields: ['status'] }),
  'ticket.assigned': (now) => ticket(now, 'open', 'agent_grace'),
  'ticket.closed': (now) => ticket(now, 'closed', 'agent_grace'),
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deepMerge(base: unknown, override: unknown): unknown {
  if (override === undefined) return base;
  if (!isPlainObject(base) || !isPlainObject(override)) return override;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) merged[key] = deepMerge(base[key], value);
  return merged;
}

/**
 * A realistic envelope of any of the 14 events, fresh ids and the current time, valid against its
 * schema; `overrides` are deep-merged (objects key by key, arrays replace).
 * @example sampleEvent('ticket.created', { data: { priority: 'urgent' } })
 */
export function sampleEvent<N extends EventName>(
  name: N,
  overrides: DeepPartial<SampleEnvelope<N>> = {},
): SampleEnvelope<N> {
  if (!isEventName(name))
    throw new InvalidOptionError(`Unknown event \`${String(name)}\`; expected one of ${EVENT_NAMES.join(', ')}`);
  return deepMerge(envelope(name, new Date().toISOString(), freshId), overrides) as SampleEnvelope<N>;
}

function envelope<N extends EventName>(name: N, now: string, id: NewId): SampleEnvelope<N> {
  return { id: id('evt'), event: name, created_at: now, data: SAMPLES[name](now, id) };
}

/** The fixed time of {@link documentedSamples}. */
const DOCUMENTED_AT = '2026-01-15T09:30:00.000Z';

/** `msg` -> `msg_7Kd2Qw9Zx4`: the same id on every run. */
const documentedId: NewId = (prefix) => `${prefix}_7Kd2Qw9Zx4`;

/**
 * The same samples with fixed ids and time, so that the OpenAPI document built from them is the same on
 * every run: one envelope per event, and the resources that events carry.
 */
export function documentedSamples() {
  return {
    events: Object.fromEntries(EVENT_NAMES.map((name) => [name, envelope(name, DOCUMENTED_AT, documentedId)])) as {
      [N in EventName]: SampleEnvelope<N>;
    },
    resources: {
      Message: message(DOCUMENTED_AT, 'received', documentedId),
      Conversation: conversation(DOCUMENTED_AT),
      Contact: contact(DOCUMENTED_AT),
      Ticket: ticket(DOCUMENTED_AT),
    },
  };
}
