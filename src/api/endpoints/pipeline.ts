import { endpoint } from '../endpoint.js';
import { page, PageQuery } from '../schemas/page.js';
import { IdParams } from '../schemas/common.js';
import { Lead, LeadListQuery, LeadMove, LeadUpdate, Stage } from '../schemas/lead.js';

export const pipeline = {
  listLeads: endpoint({
    method: 'GET',
    path: '/v1/pipeline/leads',
    summary: 'List leads',
    scope: 'pipeline:read',
    query: LeadListQuery,
    response: page(Lead),
    paginated: true,
  }),
  getLead: endpoint({
    method: 'GET',
    path: '/v1/pipeline/leads/:id',
    summary: 'One lead',
    scope: 'pipeline:read',
    params: IdParams,
    response: Lead,
  }),
  updateLead: endpoint({
    method: 'PATCH',
    path: '/v1/pipeline/leads/:id',
    summary: 'Update lead fields (the stage moves with moveLead)',
    scope: 'pipeline:write',
    params: IdParams,
    body: LeadUpdate,
    response: Lead,
  }),
  moveLead: endpoint({
    method: 'PATCH',
    path: '/v1/pipeline/leads/:id/stage',
    summary: 'Move a lead to a stage of GET /v1/pipeline/stages',
    scope: 'pipeline:write',
    params: IdParams,
    body: LeadMove,
    response: Lead,
  }),
  listStages: endpoint({
    method: 'GET',
    path: '/v1/pipeline/stages',
    summary: 'List the pipeline stages, in board order',
    scope: 'pipeline:read',
    query: PageQuery,
    response: page(Stage),
    paginated: true,
  }),
};
