import type { z } from 'zod';
import type { CampaignCreate, CampaignUpdate } from '../../../resources/index.js';
import { ApiFailure } from '../../api-failure.js';
import type { EmulatorContext } from '../../route-handler.js';
import type { CampaignRecord } from '../../state/records.js';
import { stores, type Stores } from '../../state/stores.js';
import { beginSending } from './campaign-sender.js';
import { requireCampaignReady } from './campaign-readiness.js';

const EMPTY_STATS = { recipients: 0, sent: 0, delivered: 0, failed: 0, skipped: 0 };

function requireFuture(ctx: EmulatorContext, scheduledAt: string): void {
  if (Date.parse(scheduledAt) > ctx.clock.now()) return;
  throw new ApiFailure(
    'VALIDATION_FAILED',
    `scheduled_at ${scheduledAt} is not in the future (now is ${ctx.clock.iso()})`,
    {
      details: [{ path: 'scheduled_at', in: 'body', message: 'expected a future time' }],
    },
  );
}

/** The listed contacts must exist (404 naming up to 10 that do not); the template and number too. */
function checkReferences(
  s: Stores,
  fields: { template_id?: string; integration_id?: string | null; contact_ids?: readonly string[] },
): void {
  if (fields.template_id !== undefined) s.templates.require(fields.template_id, 'template');
  if (fields.integration_id != null) {
    const account = s.accounts.require(fields.integration_id, 'connected account');
    if (account.channel !== 'phone')
      throw new ApiFailure(
        'ACCOUNT_MISMATCH',
        `Campaigns are sent from phone numbers; ${account.integration_id} is ${account.channel}`,
      );
  }
  const unknown = (fields.contact_ids ?? []).filter((id) => s.contacts.get(id) === undefined).slice(0, 10);
  if (unknown.length > 0) {
    throw new ApiFailure('NOT_FOUND', `No contact with id ${unknown.join(', ')}`, {
      details: unknown.map((id) => ({ path: 'audience.contact_ids', contact_id: id })),
    });
  }
}

/** POST /v1/campaigns: `draft`, or `scheduled` with a future `scheduled_at`. */
export function createCampaign(ctx: EmulatorContext, body: z.output<typeof CampaignCreate>): CampaignRecord {
  const s = stores(ctx.db);
  checkReferences(s, { ...body, contact_ids: body.audience.contact_ids });
  if (body.scheduled_at !== undefined) {
    requireFuture(ctx, body.scheduled_at);
    requireCampaignReady(
      s,
      { template_id: body.template_id, integration_id: body.integration_id ?? null, variables: body.variables ?? {} },
      { approved: false },
    );
  }
  const now = ctx.clock.iso();
  return s.campaigns.insert({
    id: ctx.newId('cmp'),
    name: body.name,
    template_id: body.template_id,
    integration_id: body.integration_id ?? null,
    status: body.scheduled_at === undefined ? 'draft' : 'scheduled',
    audience: body.audience,
    variables: body.variables ?? {},
    scheduled_at: body.scheduled_at ?? null,
    sent_at: null,
    cancel_reason: null,
    stats: EMPTY_STATS,
    created_at: now,
    updated_at: now,
  });
}

function requireChangeable(campaign: CampaignRecord): void {
  if (campaign.status === 'draft' || campaign.status === 'scheduled') return;
  throw new ApiFailure(
    'INVALID_STATE',
    `Campaign ${campaign.id} is ${campaign.status}; only draft or scheduled campaigns change`,
    {
      details: [{ status: campaign.status, allowed: ['draft', 'scheduled'] }],
    },
  );
}

/** PATCH /v1/campaigns/:id: a draft or scheduled campaign only; `scheduled_at` sets or clears the schedule; `status: canceled` cancels a scheduled one. */
export function updateCampaign(
  ctx: EmulatorContext,
  id: string,
  body: z.output<typeof CampaignUpdate>,
): CampaignRecord {
  const s = stores(ctx.db);
  const campaign = s.campaigns.require(id, 'campaign');
  requireChangeable(campaign);
  checkReferences(s, { ...body, contact_ids: body.audience?.contact_ids });
  if (body.status === 'canceled' && campaign.status !== 'scheduled') {
    throw new ApiFailure(
      'INVALID_STATE',
      `Campaign ${id} is ${campaign.status}; only a scheduled campaign is canceled`,
      {
        details: [{ status: campaign.status }],
      },
    );
  }
  if (body.scheduled_at) requireFuture(ctx, body.scheduled_at);
  const { status, scheduled_at, ...fields } = body;
  const schedule = scheduled_at === undefined ? campaign.scheduled_at : scheduled_at;
  const next: CampaignRecord = {
    ...campaign,
    ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
    scheduled_at: schedule,
    status: status ?? (schedule === null ? 'draft' : 'scheduled'),
    updated_at: ctx.clock.iso(),
  };
  if (next.status === 'scheduled') requireCampaignReady(s, next, { approved: false });
  return s.campaigns.put(next);
}

/** POST …/send: a draft (or scheduled) campaign with an approved template starts `sending` now. */
export function sendCampaign(ctx: EmulatorContext, id: string): CampaignRecord {
  const s = stores(ctx.db);
  const campaign = s.campaigns.require(id, 'campaign');
  if (campaign.status !== 'draft' && campaign.status !== 'scheduled') {
    throw new ApiFailure(
      'INVALID_STATE',
      `Campaign ${id} is ${campaign.status}; only a draft or scheduled campaign is sent`,
      {
        details: [{ status: campaign.status, allowed: ['draft', 'scheduled'] }],
      },
    );
  }
  requireCampaignReady(s, campaign, { approved: true });
  return beginSending(ctx, campaign);
}
