import { type CrmDatabase } from './crm-database.js';

const MAX_ROWS = 500; // the page shows recent rows; older ones stay in the database

export interface ContactRow {
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  lead_stage: string;
  score: number;
  owner: string | null;
  updated_at: string;
  opted_out: boolean;
  opt_keyword: string | null;
}

const CONTACT_SELECT = `SELECT c.id, c.name, c.email, c.phone, c.lead_stage, c.score, c.owner, c.updated_at,
    coalesce(o.opted_out, 0) AS opted_out, o.keyword AS opt_keyword
  FROM contacts c LEFT JOIN opt_out_state o ON o.contact_id = c.id`;

type StoredContact = Omit<ContactRow, 'opted_out'> & { opted_out: number };
const toContact = (row: StoredContact): ContactRow => ({ ...row, opted_out: row.opted_out === 1 });

export function listContacts(db: CrmDatabase, limit = MAX_ROWS): ContactRow[] {
  const rows = db
    .prepare(`${CONTACT_SELECT} ORDER BY c.updated_ms DESC, c.id LIMIT ?`)
    .all(Math.min(limit, MAX_ROWS)) as StoredContact[];
  return rows.map(toContact);
}

export function getContact(db: CrmDatabase, id: string): ContactRow | undefined {
  const row = db.prepare(`${CONTACT_SELECT} WHERE c.id = ?`).get(id) as StoredContact | undefined;
  return row && toContact(row);
}

/**
 * What a person reads for the contact `<id>` names (an SQL expression): the contact's name, else the name or
 * handle the customer wrote in with, never the raw id.
 */
const contactLabel = (id: string) => `coalesce(
    (SELECT name FROM contacts WHERE id = ${id}),
    (SELECT coalesce(customer_name, customer_handle) FROM conversations WHERE contact_id = ${id}
      ORDER BY latest_activity_at DESC LIMIT 1),
    (SELECT phone FROM contacts WHERE id = ${id}))`;

/** The label `contactLabel` gives each of `ids` that the CRM knows (for pages listing other systems' records). */
export function contactLabels(db: CrmDatabase, ids: string[]): Map<string, string> {
  const lookup = db.prepare(`SELECT ${contactLabel('@id')} AS label`);
  const labels = new Map<string, string>();
  for (const id of new Set(ids)) {
    const { label } = lookup.get({ id }) as { label: string | null };
    if (label !== null) labels.set(id, label);
  }
  return labels;
}

export interface ConversationRow {
  id: string;
  contact_id: string;
  channel: string;
  status: string;
  assignee: string | null;
  customer_name: string | null;
  customer_handle: string;
  /** The customer's name, else their handle. */
  customer: string;
  last_message_preview: string | null;
  latest_activity_at: string;
}

export function listConversations(db: CrmDatabase, limit = MAX_ROWS): ConversationRow[] {
  return db
    .prepare(
      `SELECT *, coalesce(customer_name, customer_handle) AS customer FROM conversations
        ORDER BY latest_activity_at DESC, id LIMIT ?`,
    )
    .all(Math.min(limit, MAX_ROWS)) as ConversationRow[];
}

export interface ActivityRow {
  key: string;
  kind: string;
  contact_id: string | null;
  /** Who `contact_id` is, by name or handle (null when the CRM does not know the contact). */
  contact: string | null;
  conversation_id: string | null;
  summary: string;
  occurred_at: string;
  delivery_id: string | null;
}

export function listActivity(db: CrmDatabase, options: { contactId?: string; limit?: number } = {}): ActivityRow[] {
  const limit = Math.min(options.limit ?? MAX_ROWS, MAX_ROWS);
  const columns = `key, kind, contact_id, ${contactLabel('activity.contact_id')} AS contact, conversation_id, summary,
    occurred_at, delivery_id`;
  return (
    options.contactId
      ? db
          .prepare(`SELECT ${columns} FROM activity WHERE contact_id = ? ORDER BY occurred_ms DESC, key LIMIT ?`)
          .all(options.contactId, limit)
      : db.prepare(`SELECT ${columns} FROM activity ORDER BY occurred_ms DESC, key LIMIT ?`).all(limit)
  ) as ActivityRow[];
}
