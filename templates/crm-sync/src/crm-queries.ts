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

export interface ConversationRow {
  id: string;
  contact_id: string;
  channel: string;
  status: string;
  assignee: string | null;
  customer_name: string | null;
  customer_handle: string;
  last_message_preview: string | null;
  latest_activity_at: string;
}

export function listConversations(db: CrmDatabase, limit = MAX_ROWS): ConversationRow[] {
  return db
    .prepare('SELECT * FROM conversations ORDER BY latest_activity_at DESC, id LIMIT ?')
    .all(Math.min(limit, MAX_ROWS)) as ConversationRow[];
}

export interface ActivityRow {
  key: string;
  kind: string;
  contact_id: string | null;
  conversation_id: string | null;
  summary: string;
  occurred_at: string;
  delivery_id: string | null;
}

export function listActivity(db: CrmDatabase, options: { contactId?: string; limit?: number } = {}): ActivityRow[] {
  const limit = Math.min(options.limit ?? MAX_ROWS, MAX_ROWS);
  const columns = 'key, kind, contact_id, conversation_id, summary, occurred_at, delivery_id';
  return (
    options.contactId
      ? db
          .prepare(`SELECT ${columns} FROM activity WHERE contact_id = ? ORDER BY occurred_ms DESC, key LIMIT ?`)
          .all(options.contactId, limit)
      : db.prepare(`SELECT ${columns} FROM activity ORDER BY occurred_ms DESC, key LIMIT ?`).all(limit)
  ) as ActivityRow[];
}
