import { type Client, isApiError } from 'convo-kit/client';
import {
  contactLabels,
  type CrmContext,
  type Panel,
  type Route,
  sendJson,
} from '../../templates/crm-sync/src/index.js';

/** The page shows the newest few: each enrollment costs one status read per step. */
const MAX_ENROLLMENTS = 20;
const MAX_CAMPAIGNS = 20;

export const OUTBOUND_PANELS: Panel[] = [
  {
    title: 'Journey enrollments',
    url: '/api/journeys',
    columns: ['contact', 'journey', 'status', 'steps', 'next_step_at', 'created_at'],
  },
  {
    title: 'Campaigns',
    url: '/api/campaigns',
    columns: [
      'name',
      'template',
      'audience',
      'status',
      'recipients',
      'sent',
      'delivered',
      'failed',
      'skipped',
      'sent_at',
    ],
  },
];

/**
 * GET /api/journeys: the service's journey enrollments, newest first, each with the status of every step
 * (`GET /v1/trigger/status/:id` for the steps sent or scheduled so far, `later` for the rest).
 * GET /api/campaigns: the service's campaigns with their state and stats.
 */
export function outboundRoutes(client: Client, crm: CrmContext): Route {
  return async (req, res, url) => {
    if (req.method !== 'GET') return false;
    if (url.pathname === '/api/journeys') {
      sendJson(res, 200, { data: await enrollments(client, crm) });
      return true;
    }
    if (url.pathname === '/api/campaigns') {
      sendJson(res, 200, { data: await campaigns(client) });
      return true;
    }
    return false;
  };
}

async function enrollments(client: Client, crm: CrmContext) {
  const { data } = await client.trigger.history({ limit: MAX_ENROLLMENTS });
  const journeys = new Map(
    await Promise.all(
      [...new Set(data.map((e) => e.journey_id))].map(async (id) => [id, await client.journeys.get({ id })] as const),
    ),
  );
  const byPhone = crm.db.prepare('SELECT id FROM contacts WHERE phone = ?');
  const contactIds = new Map(
    data.flatMap((e) => {
      const row = byPhone.get(e.phone) as { id: string } | undefined;
      return row ? [[e.phone, row.id] as const] : [];
    }),
  );
  const labels = contactLabels(crm.db, [...contactIds.values()]);
  return Promise.all(
    data.map(async (enrollment) => {
      const journey = journeys.get(enrollment.journey_id)!;
      const statuses = await Promise.all(
        enrollment.action_ids.map(async (id) => (await client.trigger.status({ id })).status),
      );
      const stepStatuses = journey.steps.map((_, i) => statuses[i] ?? 'later');
      const contactId = contactIds.get(enrollment.phone);
      return {
        id: enrollment.id,
        phone: enrollment.phone,
        contact: (contactId && labels.get(contactId)) ?? enrollment.phone,
        journey: journey.name,
        status: enrollment.status,
        step_statuses: stepStatuses,
        steps: journey.steps.map((step, i) => `${i + 1} ${step.template_name}: ${stepStatuses[i]}`).join(' · '),
        next_step_at: enrollment.next_step_at,
        created_at: enrollment.created_at,
      };
    }),
  );
}

async function campaigns(client: Client) {
  const { data } = await client.campaigns.list({ limit: MAX_CAMPAIGNS });
  const names = new Map(
    await Promise.all(
      [...new Set(data.map((c) => c.template_id))].map(async (id) => [id, await templateName(client, id)] as const),
    ),
  );
  return data.map((campaign) => ({
    id: campaign.id,
    name: campaign.name,
    template: names.get(campaign.template_id) ?? campaign.template_id,
    audience: [
      ...(campaign.audience.tags ?? []).map((tag) => `tag ${tag}`),
      ...(campaign.audience.contact_ids?.length ? [`${campaign.audience.contact_ids.length} contacts`] : []),
    ].join(', '),
    status: campaign.status,
    ...campaign.stats,
    sent_at: campaign.sent_at,
  }));
}

/** A campaign keeps its template id after the template is deleted: show the id then. */
async function templateName(client: Client, id: string): Promise<string> {
  try {
    return (await client.templates.get({ id })).name;
  } catch (error) {
    if (isApiError(error, 'NOT_FOUND')) return id;
    throw error;
  }
}
