import { type Contact, type Conversation } from 'convo-kit/resources';
import { type CrmDatabase } from './crm-database.js';

/** A contact as the service sends it (the `data` of every contact.* event, and GET /v1/contacts/:id). */
export type ServiceContact = Pick<
  Contact,
  'id' | 'name' | 'email' | 'phone' | 'lead_stage' | 'score' | 'owner' | 'opted_out' | 'updated_at'
>;
/** A conversation as the service sends it. */
export type ServiceConversation = Pick<
  Conversation,
  'id' | 'contact_id' | 'channel' | 'status' | 'assignee' | 'customer' | 'last_message_preview' | 'latest_activity_at'
>;

export interface ActivityInput {
  /** Natural key of what happened (e.g. `message:msg_123`): the same fact arriving twice is stored once. */
  key: string;
  kind: string;
  contactId: string | null;
  conversationId: string | null;
  summary: string;
  occurredAt: string;
  deliveryId?: string;
}

/**
 * Stores the contact unless the CRM already holds a version at least as new. The comparison on
 * `updated_at` makes a late, stale event (delivered out of order or replayed) change nothing.
 * @returns whether the row changed
 */
export function applyContact(db: CrmDatabase, contact: ServiceContact): boolean {
  const ms = Date.parse(contact.updated_at);
  const row = db
    .prepare(
      `INSERT INTO contacts (id, name, email, phone, lead_stage, score, owner, updated_at, updated_ms)
       VALUES (@id, @name, @email, @phone, @lead_stage, @score, @owner, @updated_at, @ms)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, email = excluded.email, phone = excluded.phone,
         lead_stage = excluded.lead_stage, score = excluded.score, owner = excluded.owner,
         updated_at = excluded.updated_at, updated_ms = excluded.updated_ms
       WHERE excluded.updated_ms > contacts.updated_ms`,
    )
    .run({ ...contact, ms });
  const optOut = applyOptOut(db, contact.id, contact.opted_out, contact.updated_at, null);
  return row.changes > 0 || optOut;
}

/** Records the opt-out flag with the same newer-wins rule; `keyword` is the stop or start word when known. */
export function applyOptOut(
  db: CrmDatabase,
  contactId: string,
  optedOut: boolean,
  changedAt: string,
  keyword: string | null,
): boolean {
  const result = db
    .prepare(
      `INSERT INTO opt_out_state (contact_id, opted_out, keyword, changed_at, changed_ms) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (contact_id) DO UPDATE SET opted_out = excluded.opted_out,
         keyword = coalesce(excluded.keyword, opt_out_state.keyword), changed_at = excluded.changed_at, changed_ms = excluded.changed_ms
       WHERE excluded.changed_ms > opt_out_state.changed_ms
          OR (excluded.changed_ms = opt_out_state.changed_ms AND excluded.keyword IS NOT NULL AND opt_out_state.keyword IS NULL)`,
    )
    .run(contactId, optedOut ? 1 : 0, keyword, changedAt, Date.parse(changedAt));
  return result.changes > 0;
}

/**
 * Stores the conversation as read from the service. Reads run concurrently, so one that saw an older
 * `latest_activity_at` than the stored row never overwrites it (equal times still apply: a status change).
 */
export function applyConversation(db: CrmDatabase, conversation: ServiceConversation): void {
  db.prepare(
    `INSERT INTO conversations (id, contact_id, channel, status, assignee, customer_name, customer_handle, last_message_preview, latest_activity_at)
     VALUES (@id, @contact_id, @channel, @status, @assignee, @name, @handle, @last_message_preview, @latest_activity_at)
     ON CONFLICT (id) DO UPDATE SET status = excluded.status, assignee = excluded.assignee,
       customer_name = excluded.customer_name, last_message_preview = excluded.last_message_preview,
       latest_activity_at = excluded.latest_activity_at
     WHERE julianday(excluded.latest_activity_at) >= julianday(conversations.latest_activity_at)`,
  ).run({ ...conversation, name: conversation.customer.name, handle: conversation.customer.handle });
}

/** Adds a timeline entry once per key. @returns whether it was new */
export function recordActivity(db: CrmDatabase, entry: ActivityInput): boolean {
  const result = db
    .prepare(
      `INSERT INTO activity (key, kind, contact_id, conversation_id, summary, occurred_at, occurred_ms, delivery_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING`,
    )
    .run(
      entry.key,
      entry.kind,
      entry.contactId,
      entry.conversationId,
      entry.summary,
      entry.occurredAt,
      Date.parse(entry.occurredAt),
      entry.deliveryId ?? null,
    );
  return result.changes > 0;
}

/** True when the CRM knows the contact opted out (checked before anything is sent). */
export function isOptedOut(db: CrmDatabase, contactId: string): boolean {
  const row = db.prepare('SELECT opted_out FROM opt_out_state WHERE contact_id = ?').get(contactId) as
    | { opted_out: number }
    | undefined;
  return row?.opted_out === 1;
}

export function conversationRow(db: CrmDatabase, id: string): { id: string; contact_id: string } | undefined {
  return db.prepare('SELECT id, contact_id FROM conversations WHERE id = ?').get(id) as
    | { id: string; contact_id: string }
    | undefined;
}

export function hasContact(db: CrmDatabase, id: string): boolean {
  return db.prepare('SELECT 1 FROM contacts WHERE id = ?').get(id) !== undefined;
}
