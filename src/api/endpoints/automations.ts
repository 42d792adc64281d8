import { endpoint } from '../endpoint.js';
import { page, PageQuery } from '../schemas/page.js';
import { Automation, AutomationRun, AutomationTrigger } from '../schemas/automation.js';
import { IdParams, synthetic } from '../schemas/common.js';

export const automations = {
  list: endpoint({
    method: 'GET',
    path: '/v1/automations',
    summary: 'List automations',
    scope: 'automations:read',
    query: PageQuery,
    response: page(Automation),
    paginated: true,
  }),
  get: endpoint({
    method: 'GET',
    path: '/v1/automations/:id',
    summary: 'One automation',
    scope: 'automations:read',
    params: IdParams,
    response: Automation,
  }),
  trigger: endpoint({
    method: 'POST',
    path: '/v1/automations/:id/trigger',
    summary: 'Trigger an automation explicitly for a conversation or a contact',
    scope: 'automations:write',
    params: IdParams,
    body: AutomationTrigger,
    response: synthetic(AutomationRun),
    status: 201,
    testKeySynthetic: true,
  }),
};
