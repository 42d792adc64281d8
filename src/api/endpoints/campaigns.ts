import { endpoint } from '../endpoint.js';
import { page } from '../schemas/page.js';
import { Campaign, CampaignCreate, CampaignListQuery, CampaignUpdate } from '../schemas/campaign.js';
import { IdParams, synthetic } from '../schemas/common.js';

export const campaigns = {
  list: endpoint({
    method: 'GET',
    path: '/v1/campaigns',
    summary: 'List broadcast campaigns',
    scope: 'campaigns:read',
    query: CampaignListQuery,
    response: page(Campaign),
    paginated: true,
  }),
  create: endpoint({
    method: 'POST',
    path: '/v1/campaigns',
    summary: 'Create a draft campaign (scheduled when `scheduled_at` is given)',
    scope: 'campaigns:write',
    body: CampaignCreate,
    response: Campaign,
    status: 201,
  }),
  get: endpoint({
    method: 'GET',
    path: '/v1/campaigns/:id',
    summary: 'One campaign',
    scope: 'campaigns:read',
    params: IdParams,
    response: Campaign,
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/v1/campaigns/:id',
    summary: 'Update a draft or scheduled campaign, or cancel a scheduled one',
    scope: 'campaigns:write',
    params: IdParams,
    body: CampaignUpdate,
    response: Campaign,
  }),
  send: endpoint({
    method: 'POST',
    path: '/v1/campaigns/:id/send',
    summary: 'Start a draft campaign whose template is approved',
    scope: 'campaigns:write',
    params: IdParams,
    response: synthetic(Campaign),
    status: 201,
    testKeySynthetic: true,
  }),
};
