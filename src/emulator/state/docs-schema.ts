import { KIND_VERSIONS_SQL } from './kind-versions.js';

/** The table every Collection keeps its documents in, with the indexes its queries and the domain's use. */
export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS docs (
  kind TEXT NOT NULL,
  id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (kind, id)
);
CREATE INDEX IF NOT EXISTS docs_kind_seq ON docs (kind, seq);
-- The selective filters (a conversation's messages, a contact's conversations) use these instead of a scan.
CREATE INDEX IF NOT EXISTS docs_conversation ON docs (kind, json_extract(data, '$.conversation_id'), seq);
CREATE INDEX IF NOT EXISTS docs_contact ON docs (kind, json_extract(data, '$.contact_id'), seq);
-- A send to a number looks its contact up by phone (and enrollments are filtered by it): without this, every
-- journey step to a new number read every contact (10 ms a step with 4,000 contacts).
CREATE INDEX IF NOT EXISTS docs_phone ON docs (kind, json_extract(data, '$.phone'), seq);
-- The journey steps due now, oldest first, without reading every enrollment (domain/journeys/journey-runner.ts).
CREATE INDEX IF NOT EXISTS docs_enrollment_due ON docs (json_extract(data, '$.next_step_at'))
  WHERE kind = 'enrollments' AND json_extract(data, '$.status') = 'active';
-- A campaign's outcomes are counted from its messages (campaign stats) out of this index alone: the
-- index on campaign_id only made a 25,000-message count read every document (75 ms against 2 ms).
DROP INDEX IF EXISTS docs_campaign;
CREATE INDEX IF NOT EXISTS docs_campaign_status ON docs (json_extract(data, '$.campaign_id'), json_extract(data, '$.delivery_status'))
  WHERE kind = 'messages';
-- The outbound scheduler finds the campaigns due to start or sending without reading their audiences.
CREATE INDEX IF NOT EXISTS docs_campaign_state ON docs (json_extract(data, '$.status'), json_extract(data, '$.scheduled_at'))
  WHERE kind = 'campaigns';
-- The delivery-progress sweep reads the due steps oldest first, a page at a time (domain/messages/delivery-progress.ts).
CREATE INDEX IF NOT EXISTS docs_delivery_due ON docs (json_extract(data, '$.due_at')) WHERE kind = 'delivery_progress';
-- The conversations by latest activity (the console's list, a scheduled automation's targets), read from the
-- newest end of this index instead of sorting every conversation. A query must name the kind as this literal.
CREATE INDEX IF NOT EXISTS docs_conversation_activity ON docs (json_extract(data, '$.latest_activity_at'), seq)
  WHERE kind = 'conversations';
CREATE TABLE IF NOT EXISTS doc_seq (n INTEGER NOT NULL);
${KIND_VERSIONS_SQL}`;

/** The index that serves `latest(field)` of a kind, by `kind.field` (SCHEMA_SQL). */
export const ORDER_INDEXES: Readonly<Record<string, string>> = {
  'conversations.latest_activity_at': 'docs_conversation_activity',
};
