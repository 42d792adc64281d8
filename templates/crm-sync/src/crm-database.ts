import { openDatabase } from 'convo-kit/store';

/** The CRM's SQLite handle (WAL, busy timeout), opened through convo-kit so the project needs no native build of its own. */
export type CrmDatabase = ReturnType<typeof openDatabase>;

// Timestamps are kept twice: as the service wrote them (shown) and as epoch ms (compared), because
// ISO strings with and without milliseconds do not sort as text.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS contacts (
  id TEXT PRIMARY KEY, name TEXT, email TEXT, phone TEXT, lead_stage TEXT NOT NULL,
  score INTEGER NOT NULL, owner TEXT, updated_at TEXT NOT NULL, updated_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS opt_out_state (
  contact_id TEXT PRIMARY KEY, opted_out INTEGER NOT NULL, keyword TEXT,
  changed_at TEXT NOT NULL, changed_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS conversations (
  id TEXT PRIMARY KEY, contact_id TEXT NOT NULL, channel TEXT NOT NULL, status TEXT NOT NULL,
  assignee TEXT, customer_name TEXT, customer_handle TEXT NOT NULL, last_message_preview TEXT,
  latest_activity_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS activity (
  key TEXT PRIMARY KEY, kind TEXT NOT NULL, contact_id TEXT, conversation_id TEXT,
  summary TEXT NOT NULL, occurred_at TEXT NOT NULL, occurred_ms INTEGER NOT NULL, delivery_id TEXT
);
CREATE INDEX IF NOT EXISTS activity_by_time ON activity (occurred_ms DESC, key);
CREATE INDEX IF NOT EXISTS activity_by_contact ON activity (contact_id, occurred_ms DESC);
`;

/** Opens (and creates when new) the CRM tables: contacts, opt-out state, conversations, activity timeline. */
export function openCrmDatabase(path: string): CrmDatabase {
  const db = openDatabase(path);
  db.exec(SCHEMA);
  return db;
}
