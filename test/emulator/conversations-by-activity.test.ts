import { describe, expect, it } from 'vitest';
import { Collection } from '../../src/emulator/state/collection.js';
import { ORDER_INDEXES } from '../../src/emulator/state/docs-schema.js';
import { openEmulatorDatabase } from '../../src/emulator/state/database.js';

// The conversations by latest activity (the console's list, GET /_emulator/console/conversations, and a
// scheduled automation's targets) are read from the newest end of docs_conversation_activity, not sorted.

interface Doc {
  id: string;
  latest_activity_at: string;
}

describe('conversations by latest activity', () => {
  const db = openEmulatorDatabase();
  const conversations = new Collection<Doc>(db, 'conversations');
  // Activity times out of insertion order, with ties (the same second for every 100th), which seq breaks.
  const docs: Doc[] = Array.from({ length: 3_000 }, (_, i) => ({
    id: `conv_${i}`,
    latest_activity_at: new Date(Date.UTC(2026, 0, 1) + ((i * 7919) % 2_000) * 1000).toISOString(),
  }));
  conversations.insertMany(docs);
  new Collection<Doc>(db, 'messages').insertMany(docs.map((d) => ({ ...d, id: `msg_${d.id}` })));

  it('answers the newest first, ties by the later insert, and only conversations', () => {
    const expected = docs
      .map((doc, seq) => ({ doc, seq }))
      .sort((a, b) => b.doc.latest_activity_at.localeCompare(a.doc.latest_activity_at) || b.seq - a.seq)
      .slice(0, 25)
      .map(({ doc }) => doc.id);
    expect(conversations.latest('latest_activity_at', 25).map((d) => d.id)).toEqual(expected);
  });

  it('reads the index, with no sort of every conversation', () => {
    const plan = (
      db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT data FROM docs INDEXED BY ${ORDER_INDEXES['conversations.latest_activity_at']}
           WHERE kind = 'conversations' ORDER BY json_extract(data, '$.latest_activity_at') DESC, seq DESC LIMIT 20`,
        )
        .all() as { detail: string }[]
    ).map((row) => row.detail);
    expect(plan).toEqual(['SCAN docs USING INDEX docs_conversation_activity']);
  });
});
