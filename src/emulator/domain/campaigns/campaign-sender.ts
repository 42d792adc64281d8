import { performance } from 'node:perf_hooks';
import type Database from 'better-sqlite3';
import { ApiFailure } from '../../api-failure.js';
import type { EmulatorContext } from '../../route-handler.js';
import { Collection } from '../../state/collection.js';
import type { CampaignRecord } from '../../state/records.js';
import { statement } from '../../state/statement.js';
import { stores } from '../../state/stores.js';
import { requireCampaignReady } from './campaign-readiness.js';
import { sendTemplate } from '../templates/send-template.js';

export const CAMPAIGN_RECIPIENTS_KIND = 'campaign_recipients';
export const CAMPAIGN_PROGRESS_KIND = 'campaign_progress';

/** The audience as resolved when sending started (written once). */
interface Recipients {
  id: string;
  contact_ids: string[];
}

/** How far sending got, and the outcomes that leave no message behind. */
interface Progress {
  id: string;
  /** The audience's size, kept here so that reading the stats never parses the whole recipient list. */
  recipients?: number;
  next: number;
  sent: number;
  rejected: number;
  skipped: number;
}

const recipientsOf = (db: Database.Database) => new Collection<Recipients>(db, CAMPAIGN_RECIPIENTS_KIND);
const progressOf = (db: Database.Database) => new Collection<Progress>(db, CAMPAIGN_PROGRESS_KIND);

/** The campaign sending now and its parsed recipients, so a chunk does not re-read 25,000 ids (a sending campaign does not change). */
const sendingCache = new WeakMap<Database.Database, { campaign: CampaignRecord; ids: string[] }>();

/** The sending campaign's cache goes with the state it was read from (an import replaces it). */
export function forgetSendingCampaign(db: Database.Database): void {
  sendingCache.delete(db);
}

// Through docs_campaign_state (src/emulator/state/collection.ts): a chunk reads only the campaigns it works
// on, never every campaign's audience (one 25,000-id document cost about a millisecond per chunk).
const DUE_SCHEDULED_SQL = `SELECT data FROM docs INDEXED BY docs_campaign_state WHERE kind = 'campaigns'
  AND json_extract(data, '$.status') = 'scheduled' AND json_extract(data, '$.scheduled_at') <= ? ORDER BY seq`;
const OLDEST_SENDING_SQL = `SELECT id FROM docs INDEXED BY docs_campaign_state WHERE kind = 'campaigns'
  AND json_extract(data, '$.status') = 'sending' ORDER BY seq LIMIT 1`;

/** The oldest campaign in `sending`, with its recipients, or undefined. */
function oldestSending(db: Database.Database): { campaign: CampaignRecord; ids: string[] } | undefined {
  const row = statement(db, OLDEST_SENDING_SQL).get() as { id: string } | undefined;
  if (!row) return undefined;
  const cached = sendingCache.get(db);
  if (cached?.campaign.id === row.id) return cached;
  const campaign = stores(db).campaigns.get(row.id);
  if (!campaign) return undefined;
  const sending = { campaign, ids: recipientsOf(db).get(row.id)?.contact_ids ?? [] };
  sendingCache.set(db, sending);
  return sending;
}

// Answered from the index docs_campaign_status alone (src/emulator/state/collection.ts): the messages are not read.
const STATUS_COUNTS_SQL = `SELECT json_extract(data, '$.delivery_status') AS status, count(*) AS n FROM docs
  INDEXED BY docs_campaign_status WHERE kind = 'messages' AND json_extract(data, '$.campaign_id') = ?
  GROUP BY json_extract(data, '$.delivery_status')`;

/** The campaign with its stats counted now: from its progress and from the messages it sent. */
export function withStats(db: Database.Database, campaign: CampaignRecord): CampaignRecord {
  const progress = progressOf(db).get(campaign.id);
  if (!progress) return campaign;
  const byStatus = new Map(
    (statement(db, STATUS_COUNTS_SQL).all(campaign.id) as { status: string; n: number }[]).map((r) => [r.status, r.n]),
  );
  return {
    ...campaign,
    stats: {
      recipients: progress.recipients ?? recipientsOf(db).get(campaign.id)?.contact_ids.length ?? 0,
      sent: progress.sent,
      delivered: (byStatus.get('delivered') ?? 0) + (byStatus.get('read') ?? 0),
      failed: progress.rejected + (byStatus.get('failed') ?? 0),
      skipped: progress.skipped,
    },
  };
}

/** The audience's contact ids, each once, in order: listed ids first, then contacts with a conversation tagged with any of `tags`. */
export function resolveAudience(db: Database.Database, audience: CampaignRecord['audience']): string[] {
  const ids = new Set<string>(audience.contact_ids ?? []);
  if (audience.tags && audience.tags.length > 0) {
    const rows = db
      .prepare(
        `SELECT DISTINCT json_extract(d.data, '$.contact_id') AS contact_id FROM docs d, json_each(d.data, '$.tags') t
         WHERE d.kind = 'conversations' AND t.value IN (SELECT value FROM json_each(?)) ORDER BY d.seq`,
      )
      .all(JSON.stringify(audience.tags)) as { contact_id: string }[];
    for (const row of rows) ids.add(row.contact_id);
  }
  return [...ids];
}

/** Starts sending: the audience is fixed now and the scheduler sends it in chunks. */
export function beginSending(ctx: EmulatorContext, campaign: CampaignRecord): CampaignRecord {
  const s = stores(ctx.db);
  const now = ctx.clock.iso();
  const contactIds = resolveAudience(ctx.db, campaign.audience);
  const started = ctx.db.transaction(() => {
    recipientsOf(ctx.db).put({ id: campaign.id, contact_ids: contactIds });
    progressOf(ctx.db).put({
      id: campaign.id,
      recipients: contactIds.length,
      next: 0,
      sent: 0,
      rejected: 0,
      skipped: 0,
    });
    return s.campaigns.put({ ...campaign, status: 'sending', sent_at: now, updated_at: now });
  })();
  ctx.outbound.wake();
  return withStats(ctx.db, started);
}

/** One recipient: a template send, or a skip (opted out, no phone) or a counted failure; never throws an ApiFailure. */
function sendOne(ctx: EmulatorContext, campaign: CampaignRecord, contactId: string, progress: Progress): void {
  const s = stores(ctx.db);
  const contact = s.contacts.get(contactId);
  if (!contact?.phone || contact.opted_out) {
    progress.skipped++;
    return;
  }
  try {
    sendTemplate(ctx, {
      // Read per recipient: a throttled send can auto-pause the template mid-chunk (template-throttle.ts).
      template: s.templates.get(campaign.template_id),
      templateId: campaign.template_id,
      phone: contact.phone,
      contact,
      integrationId: campaign.integration_id ?? undefined,
      variables: campaign.variables,
      source: 'api',
      origin: { campaign_id: campaign.id },
    });
    progress.sent++;
  } catch (error) {
    if (!(error instanceof ApiFailure)) throw error;
    if (error.code === 'CONTACT_OPTED_OUT') progress.skipped++;
    else progress.rejected++;
  }
}

/**
 * Scheduled campaigns that fell due start (or are canceled when their template is not approved), then
 * one sending campaign gets one chunk of sends: at least one, then until `deadline` (performance.now()
 * ms). True while work remains.
 */
export function runCampaignsChunk(ctx: EmulatorContext, deadline: number): boolean {
  const s = stores(ctx.db);
  for (const row of statement(ctx.db, DUE_SCHEDULED_SQL).all(ctx.clock.iso()) as { data: string }[]) {
    startScheduled(ctx, JSON.parse(row.data) as CampaignRecord);
  }
  const current = oldestSending(ctx.db);
  if (!current) return false;
  const { campaign: sending, ids } = current;
  const progress = progressOf(ctx.db).get(sending.id) ?? { id: sending.id, next: 0, sent: 0, rejected: 0, skipped: 0 };
  ctx.db.transaction(() => {
    while (progress.next < ids.length) {
      sendOne(ctx, sending, ids[progress.next]!, progress);
      progress.next++;
      if (performance.now() >= deadline) break;
    }
    progressOf(ctx.db).put(progress);
    if (progress.next >= ids.length) {
      s.campaigns.put({ ...sending, status: 'sent', updated_at: ctx.clock.iso() });
      sendingCache.delete(ctx.db);
    }
  })();
  return true;
}

/** A schedule that fell due: the campaign starts, or is canceled with the refusal POST …/send would answer. */
function startScheduled(ctx: EmulatorContext, campaign: CampaignRecord): void {
  try {
    requireCampaignReady(stores(ctx.db), campaign, { approved: true });
  } catch (error) {
    if (!(error instanceof ApiFailure)) throw error;
    stores(ctx.db).campaigns.put({
      ...campaign,
      status: 'canceled',
      cancel_reason: `${error.code}: ${error.message}`,
      updated_at: ctx.clock.iso(),
    });
    return;
  }
  beginSending(ctx, campaign);
}
