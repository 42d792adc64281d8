import type Database from 'better-sqlite3';

const SQL = `SELECT count(*) AS messages, coalesce(sum(json_extract(data, '$.source') = 'ai'), 0) AS ai_replies
  FROM docs WHERE kind = 'messages' AND json_extract(data, '$.direction') = 'sent' AND json_extract(data, '$.created_at') >= ?`;

/** Outbound messages (and how many of them the AI wrote) since an ISO-8601 instant, counted in SQL without loading documents. */
export function outboundCounts(db: Database.Database, sinceIso: string): { messages: number; ai_replies: number } {
  return db.prepare(SQL).get(sinceIso) as { messages: number; ai_replies: number };
}
