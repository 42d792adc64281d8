import type Database from 'better-sqlite3';
import { statement } from './statement.js';

/**
 * What the plan's monthly message and AI-reply quotas count, per calendar month (UTC, `YYYY-MM` of the
 * record's `created_at`), kept by triggers on the documents themselves: every sent message, and every AI
 * reply (a sent message with source `ai`, or a comment reply with source `ai`: docs/ai-and-knowledge.md).
 * A send checks its quota before every send, so counting the messages each time would cost a campaign of
 * 25,000 recipients 25,000 scans; the triggers keep the counts exact through sends, resets and imports alike.
 * A message's direction, source and created_at never change once stored, so its updates need no trigger.
 */
export const OUTBOUND_COUNTS_SQL = `
CREATE TABLE IF NOT EXISTS outbound_counts (
  month TEXT NOT NULL,
  name TEXT NOT NULL,
  used INTEGER NOT NULL,
  PRIMARY KEY (month, name)
);
CREATE TRIGGER IF NOT EXISTS outbound_message_added AFTER INSERT ON docs
WHEN new.kind = 'messages' AND json_extract(new.data, '$.direction') = 'sent'
BEGIN
  INSERT INTO outbound_counts SELECT substr(json_extract(new.data, '$.created_at'), 1, 7), 'messages', 1 WHERE 1
    ON CONFLICT (month, name) DO UPDATE SET used = used + 1;
  INSERT INTO outbound_counts SELECT substr(json_extract(new.data, '$.created_at'), 1, 7), 'ai_replies', 1
    WHERE json_extract(new.data, '$.source') = 'ai'
    ON CONFLICT (month, name) DO UPDATE SET used = used + 1;
END;
CREATE TRIGGER IF NOT EXISTS outbound_message_removed AFTER DELETE ON docs
WHEN old.kind = 'messages' AND json_extract(old.data, '$.direction') = 'sent'
BEGIN
  UPDATE outbound_counts SET used = used - 1
    WHERE month = substr(json_extract(old.data, '$.created_at'), 1, 7) AND name = 'messages';
  UPDATE outbound_counts SET used = used - 1
    WHERE month = substr(json_extract(old.data, '$.created_at'), 1, 7) AND name = 'ai_replies'
      AND json_extract(old.data, '$.source') = 'ai';
END;
CREATE TRIGGER IF NOT EXISTS outbound_comment_replies_added AFTER INSERT ON docs WHEN new.kind = 'comments'
BEGIN
  INSERT INTO outbound_counts SELECT substr(json_extract(r.value, '$.created_at'), 1, 7), 'ai_replies', count(*)
    FROM json_each(new.data, '$.replies') r WHERE json_extract(r.value, '$.source') = 'ai' GROUP BY 1
    ON CONFLICT (month, name) DO UPDATE SET used = used + excluded.used;
END;
CREATE TRIGGER IF NOT EXISTS outbound_comment_replies_removed AFTER DELETE ON docs WHEN old.kind = 'comments'
BEGIN
  UPDATE outbound_counts SET used = used - (SELECT count(*) FROM json_each(old.data, '$.replies') r
      WHERE json_extract(r.value, '$.source') = 'ai' AND substr(json_extract(r.value, '$.created_at'), 1, 7) = month)
    WHERE name = 'ai_replies';
END;
CREATE TRIGGER IF NOT EXISTS outbound_comment_replies_changed AFTER UPDATE OF data ON docs WHEN new.kind = 'comments'
BEGIN
  UPDATE outbound_counts SET used = used - (SELECT count(*) FROM json_each(old.data, '$.replies') r
      WHERE json_extract(r.value, '$.source') = 'ai' AND substr(json_extract(r.value, '$.created_at'), 1, 7) = month)
    WHERE name = 'ai_replies';
  INSERT INTO outbound_counts SELECT substr(json_extract(r.value, '$.created_at'), 1, 7), 'ai_replies', count(*)
    FROM json_each(new.data, '$.replies') r WHERE json_extract(r.value, '$.source') = 'ai' GROUP BY 1
    ON CONFLICT (month, name) DO UPDATE SET used = used + excluded.used;
END;
`;

const REBUILD_SQL = `
DELETE FROM outbound_counts;
INSERT INTO outbound_counts SELECT substr(json_extract(data, '$.created_at'), 1, 7), 'messages', count(*) FROM docs
  WHERE kind = 'messages' AND json_extract(data, '$.direction') = 'sent' GROUP BY 1;
INSERT INTO outbound_counts SELECT month, 'ai_replies', sum(n) FROM (
  SELECT substr(json_extract(data, '$.created_at'), 1, 7) AS month, count(*) AS n FROM docs
    WHERE kind = 'messages' AND json_extract(data, '$.direction') = 'sent' AND json_extract(data, '$.source') = 'ai' GROUP BY 1
  UNION ALL
  SELECT substr(json_extract(r.value, '$.created_at'), 1, 7), count(*) FROM docs c, json_each(c.data, '$.replies') r
    WHERE c.kind = 'comments' AND json_extract(r.value, '$.source') = 'ai' GROUP BY 1
) GROUP BY month;
`;

/** Recounts from the documents (a database kept from before the counts existed). */
export function rebuildOutboundCounts(db: Database.Database): void {
  db.transaction(() => db.exec(REBUILD_SQL))();
}

/** Sent messages and AI replies in the calendar month (UTC) of `nowMs`: what the monthly quotas count. */
export function outboundCounts(db: Database.Database, nowMs: number): { messages: number; ai_replies: number } {
  const month = new Date(nowMs).toISOString().slice(0, 7);
  const rows = statement(db, 'SELECT name, used FROM outbound_counts WHERE month = ?').all(month) as {
    name: string;
    used: number;
  }[];
  const used = (name: string) => rows.find((r) => r.name === name)?.used ?? 0;
  return { messages: used('messages'), ai_replies: used('ai_replies') };
}
