import { performance } from 'node:perf_hooks';
import type Database from 'better-sqlite3';
import { ApiFailure } from '../api-failure.js';
import type { EmulatorContext } from '../route-handler.js';
import { Collection } from '../state/collection.js';
import type { CampaignRecord } from '../state/records.js';
import { stores } from '../state/stores.js';
import { sendTemplate } from './send-template.js';

/** Emulator-time budget of one sending chunk: then the event loop gets the API back before the next chunk. */
export const CAMPAIGN_CHUNK_BUDGET_MS = 8;

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
  next: number;
  sent: number;
  rejected: number;
  skipped: number;
}

const recipientsOf = (db: Database.Database) => new Collection<Recipients>(db, CAMPAIGN_RECIPIENTS_KIND);
const progressOf = (db: Database.Database) => new Collection<Progress>(db, CAMPAIGN_PROGRESS_KIND);

/** Parsed recipient lists of the campaigns sending now, so a chunk does not re-read 25,000 ids. */
const recipientCache = new WeakMap<Database.Database, Map<string, string[]>>();

function cachedRecipients(db: Database.Database, campaignId: string): string[] {
  let cache = recipientCache.get(db);
  if (!cache) recipientCache.set(db, (cache = new Map()));
  let ids = cache.get(campaignId);
  if (!ids) cache.set(campaignId, (ids = recipientsOf(db).get(campaignId)?.contact_ids ?? []));
  return ids;
}

const STATUS_COUNTS_SQL = `SELECT json_extract(data, '$.delivery_status') AS status, count(*) AS n FROM docs
  WHERE kind = 'messages' AND json_extract(data, '$.campaign_id') = ? GROUP BY status`;

/** The campaign with its stats counted now: from its progress and from the messages it sent. */
export function withStats(db: Database.Database, campaign: CampaignRecord): CampaignRecord {
  const progress = progressOf(db).get(campaign.id);
  if (!progress) return campaign;
  const byStatus = new Map(
    (db.prepare(STATUS_COUNTS_SQL).all(campaign.id) as { status: string; n: number }[]).map((r) => [r.status, r.n]),
  );
  return {
    ...campaign,
    stats: {
      recipients: recipientsOf(db).get(campaign.id)?.contact_ids.length ?? 0,
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
    progressOf(ctx.db).put({ id: campaign.id, next: 0, sent: 0, rejected: 0, skipped: 0 });
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
 * one sending campaign gets one chunk of sends within CAMPAIGN_CHUNK_BUDGET_MS. True while work remains.
 */
export function runCampaignsChunk(ctx: EmulatorContext): boolean {
  const s = stores(ctx.db);
  const now = ctx.clock.iso();
  for (const due of s.campaigns.all({ status: 'scheduled' })) {
    if (due.scheduled_at !== null && due.scheduled_at <= now) startScheduled(ctx, due);
  }
  const sending = s.campaigns.all({ status: 'sending' }).at(-1);
  if (!sending) return false;
  const ids = cachedRecipients(ctx.db, sending.id);
  const progress = progressOf(ctx.db).get(sending.id) ?? { id: sending.id, next: 0, sent: 0, rejected: 0, skipped: 0 };
  const started = performance.now();
  ctx.db.transaction(() => {
    while (progress.next < ids.length && performance.now() - started < CAMPAIGN_CHUNK_BUDGET_MS) {
      sendOne(ctx, sending, ids[progress.next]!, progress);
      progress.next++;
    }
    progressOf(ctx.db).put(progress);
    if (progress.next >= ids.length) {
      s.campaigns.put({ ...sending, status: 'sent', updated_at: ctx.clock.iso() });
      recipientCache.get(ctx.db)?.delete(sending.id);
    }
  })();
  return true;
}

function startScheduled(ctx: EmulatorContext, campaign: CampaignRecord): void {
  const template = stores(ctx.db).templates.get(campaign.template_id);
  if (template?.status === 'approved') {
    beginSending(ctx, campaign);
    return;
  }
  stores(ctx.db).campaigns.put({
    ...campaign,
    status: 'canceled',
    cancel_reason: `TEMPLATE_NOT_APPROVED: template ${campaign.template_id} was ${template?.status ?? 'deleted'} at the scheduled time`,
    updated_at: ctx.clock.iso(),
  });
}
