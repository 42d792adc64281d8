import type Database from 'better-sqlite3';

// An AI reply is one the AI wrote, to a message or to a public comment (docs/ai-and-knowledge.md, Comments).
const SQL = `SELECT count(*) AS messages, coalesce(sum(json_extract(data, '$.source') = 'ai'), 0) + (
    SELECT count(*) FROM docs c, json_each(c.data, '$.replies') r
    WHERE c.kind = 'comments' AND json_extract(r.value, '$.source') = 'ai' AND json_extract(r.value, '$.created_at') >= @since
  ) AS ai_replies
  FROM docs WHERE kind = 'messages' AND json_extract(data, '$.direction') = 'sent' AND json_extract(data, '$.created_at') >= @since`;

/** Outbound messages, and the AI's replies to messages and comments, since an ISO-8601 instant, counted in SQL without loading documents. */
export function outboundCounts(db: Database.Database, sinceIso: string): { messages: number; ai_replies: number } {
  return db.prepare(SQL).get({ since: sinceIso }) as { messages: number; ai_replies: number };
}
