import { endpoint } from '../endpoint.js';
import { page } from '../schemas/page.js';
import { IdParams } from '../schemas/common.js';
import {
  Journey,
  JourneyCreate,
  JourneyListQuery,
  JourneyStatusChange,
  JourneyStepsReplace,
} from '../schemas/journey.js';

export const journeys = {
  list: endpoint({
    method: 'GET',
    path: '/v1/journeys',
    summary: 'List journeys with their required variables',
    scope: 'journeys:read',
    query: JourneyListQuery,
    response: page(Journey),
    paginated: true,
  }),
  create: endpoint({
    method: 'POST',
    path: '/v1/journeys',
    summary: 'Create a journey (a draft) and map approved, organization-owned templates to its steps',
    scope: 'journeys:write',
    body: JourneyCreate,
    response: Journey,
    status: 201,
  }),
  get: endpoint({
    method: 'GET',
    path: '/v1/journeys/:id',
    summary: 'One journey with its mapped templates and step delays',
    scope: 'journeys:read',
    params: IdParams,
    response: Journey,
  }),
  replaceSteps: endpoint({
    method: 'PUT',
    path: '/v1/journeys/:id/steps',
    summary: 'Replace the step map with organization-owned templates (PATCH accepted as the same)',
    scope: 'journeys:write',
    params: IdParams,
    body: JourneyStepsReplace,
    response: Journey,
    aliases: ['PATCH'],
  }),
  setStatus: endpoint({
    method: 'POST',
    path: '/v1/journeys/:id/status',
    summary: 'Activate or pause a journey (PATCH accepted as the same)',
    scope: 'journeys:write',
    params: IdParams,
    body: JourneyStatusChange,
    response: Journey,
    aliases: ['PATCH'],
  }),
};
