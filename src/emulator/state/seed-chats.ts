import type { Contact, Conversation, Message } from '../../resources/index.js';
import { preview } from '../domain/messages/send-message.js';
import { windowExpiry } from '../domain/conversations/service-window.js';
import type { Account } from './records.js';

const HOUR_MS = 3_600_000;

const CUSTOMER_LINES = [
  'Hi! Is the blue jacket still available in medium?',
  'When will my order arrive?',
  'Can I change the delivery address?',
  'Do you ship to Canada?',
  'The zipper broke after a week, what can I do?',
  'Thanks, that helps a lot.',
];
const REPLY_LINES = [
  'Yes, it is in stock. Shall I reserve one for you?',
  'It left our warehouse yesterday; expect it within 2 days.',
  'Sure, send me the new address and I will update it.',
  'We do, shipping takes 5-7 business days.',
  'Sorry about that! I have opened a replacement request.',
  'You are welcome, have a great day!',
];

/** One seeded customer chat: a contact, one conversation on an account, and its message history. */
export interface ChatSpec {
  contact: Pick<Contact, 'id' | 'name' | 'email' | 'phone' | 'lead_stage' | 'score' | 'owner' | 'opted_out'> & {
    handle: string;
  };
  conversationId: string;
  account: Account;
  status: Conversation['status'];
  assignee: string | null;
  tags: string[];
  /** Hours since the customer's last message; on the phone channel the window is open when < 24. */
  lastInboundHoursAgo: number;
  /** Customer/reply pairs before the customer's last message. */
  turns: number;
  /** Overrides the customer's last message (e.g. `STOP` for the opted-out contact). */
  lastInboundContent?: string;
  /** Variety for the copy, so chats do not all read alike. */
  index: number;
}

export interface SeededChat {
  contact: Contact;
  conversation: Conversation;
  messages: Message[];
}

export function buildChat(spec: ChatSpec, nowMs: number): SeededChat {
  const { account } = spec;
  const lastInboundMs = nowMs - spec.lastInboundHoursAgo * HOUR_MS;
  const messages: Message[] = [];
  const push = (direction: Message['direction'], content: string, atMs: number, n: number): void => {
    messages.push({
      id: `msg_${spec.conversationId.replace(/^conv_/, '')}_${n}`,
      conversation_id: spec.conversationId,
      integration_id: account.integration_id,
      channel: account.channel,
      direction,
      content,
      media: null,
      buttons: null,
      cta_url: null,
      delivery_status: direction === 'received' ? 'delivered' : n % 4 === 1 ? 'read' : 'delivered',
      // Every other reply is the AI's, so usage counts AI replies from real data.
      source: direction === 'received' ? null : n % 4 === 1 ? 'ai' : 'dashboard',
      error: null,
      created_at: new Date(atMs).toISOString(),
    });
  };
  const firstMs = lastInboundMs - spec.turns * HOUR_MS;
  for (let t = 0; t < spec.turns; t++) {
    const at = firstMs + t * HOUR_MS;
    push('received', CUSTOMER_LINES[(spec.index + t) % CUSTOMER_LINES.length]!, at, 2 * t);
    // Replies come 3-12 minutes later, so analytics has a response time to compute.
    push(
      'sent',
      REPLY_LINES[(spec.index + t) % REPLY_LINES.length]!,
      at + (3 + ((spec.index + t) % 10)) * 60_000,
      2 * t + 1,
    );
  }
  push(
    'received',
    spec.lastInboundContent ?? CUSTOMER_LINES[(spec.index + spec.turns) % CUSTOMER_LINES.length]!,
    lastInboundMs,
    2 * spec.turns,
  );
  const last = messages[messages.length - 1]!;
  const createdAt = messages[0]!.created_at;
  const { handle, ...contactFields } = spec.contact;
  const contact: Contact = {
    ...contactFields,
    identities: [{ channel: account.channel, handle, integration_id: account.integration_id }],
    created_at: createdAt,
    updated_at: createdAt,
  };
  const conversation: Conversation = {
    id: spec.conversationId,
    contact_id: contact.id,
    customer: { name: contact.name, handle },
    channel: account.channel,
    integration_id: account.integration_id,
    stage: contact.lead_stage,
    status: spec.status,
    assignee: spec.assignee,
    tags: spec.tags,
    routing: { team: spec.assignee ? 'support' : null, queue: account.channel === 'phone' ? 'phone' : 'social' },
    last_message_preview: preview(last.content),
    latest_activity_at: last.created_at,
    service_window_expires_at: windowExpiry(account.channel, lastInboundMs),
    created_at: createdAt,
  };
  return { contact, conversation, messages };
}
