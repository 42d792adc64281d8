import { endpoint } from '../endpoint.js';
import { page } from '../schemas/page.js';
import { IdParams } from '../schemas/common.js';
import {
  Enrollment,
  EnrollmentHistoryQuery,
  StopEnrollmentsQuery,
  StopEnrollmentsResult,
  TriggerBatchRequest,
  TriggerBatchResult,
  TriggerLimits,
  TriggerRequest,
  TriggerResult,
  TriggerStatus,
  TriggerValidation,
} from '../schemas/trigger.js';

export const trigger = {
  enroll: endpoint({
    method: 'POST',
    path: '/v1/trigger',
    summary: 'Enroll a phone into the journey of `trigger_name`; follow `status_url` for the outcome',
    scope: 'journeys:write',
    body: TriggerRequest,
    response: TriggerResult,
    status: 201,
  }),
  limits: endpoint({
    method: 'GET',
    path: '/v1/trigger/limits',
    summary: 'Journey quota, usage and remaining capacity',
    scope: 'journeys:read',
    response: TriggerLimits,
  }),
  status: endpoint({
    method: 'GET',
    path: '/v1/trigger/status/:id',
    summary: 'Explain a delivery outcome by automation action id: what happened, whose fault, the next step',
    scope: 'journeys:read',
    params: IdParams,
    response: TriggerStatus,
  }),
  history: endpoint({
    method: 'GET',
    path: '/v1/trigger/history',
    summary: 'Recent enrollments, newest first',
    scope: 'journeys:read',
    query: EnrollmentHistoryQuery,
    response: page(Enrollment),
    paginated: true,
  }),
  validate: endpoint({
    method: 'POST',
    path: '/v1/trigger/validate',
    summary: 'Dry run of a trigger payload: nothing is enrolled or sent',
    scope: 'journeys:write',
    body: TriggerRequest,
    response: TriggerValidation,
    // A dry run changes nothing, so read-only plans may use it.
    write: false,
  }),
  batch: endpoint({
    method: 'POST',
    path: '/v1/trigger/batch',
    summary: 'Enroll up to 100 recipients into one journey; one result per row',
    scope: 'journeys:write',
    body: TriggerBatchRequest,
    response: TriggerBatchResult,
  }),
  stopEnrollments: endpoint({
    method: 'DELETE',
    path: '/v1/trigger/enrollments',
    summary: 'Stop the active enrollments of a phone, of a journey, or of a phone in a journey',
    scope: 'journeys:write',
    query: StopEnrollmentsQuery,
    response: StopEnrollmentsResult,
  }),
};
