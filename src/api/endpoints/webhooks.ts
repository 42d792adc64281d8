import { endpoint } from '../endpoint.js';
import { page, PageQuery } from '../schemas/page.js';
import { IdParams, NoContent } from '../schemas/common.js';
import { TriggerResult, WebhookSendRequest } from '../schemas/trigger.js';
import {
  SignPayloadRequest,
  SignPayloadResult,
  WebhookAttempt,
  WebhookCreate,
  WebhookEndpoint,
  WebhookEndpointCreated,
} from '../schemas/webhook-endpoint.js';

/** The legacy "trigger a journey or send now" route and its compatibility alias share one shape. */
const send = {
  scope: 'journeys:write',
  body: WebhookSendRequest,
  response: TriggerResult,
  status: 201,
} as const;

export const webhooks = {
  list: endpoint({
    method: 'GET',
    path: '/v1/webhooks',
    summary: 'List webhook endpoints (never their secrets)',
    scope: 'webhooks:read',
    query: PageQuery,
    response: page(WebhookEndpoint),
    paginated: true,
  }),
  create: endpoint({
    method: 'POST',
    path: '/v1/webhooks',
    summary: 'Register a public HTTPS endpoint; the whsec_ secret is returned only here',
    scope: 'webhooks:write',
    body: WebhookCreate,
    response: WebhookEndpointCreated,
    status: 201,
  }),
  delete: endpoint({
    method: 'DELETE',
    path: '/v1/webhooks/:id',
    summary: 'Disable or revoke an endpoint: it no longer receives events',
    scope: 'webhooks:write',
    params: IdParams,
    response: NoContent,
    status: 204,
  }),
  listDeliveries: endpoint({
    method: 'GET',
    path: '/v1/webhooks/:id/deliveries',
    summary: 'The last 50 delivery attempts of an endpoint, newest first',
    scope: 'webhooks:read',
    params: IdParams,
    query: PageQuery,
    response: page(WebhookAttempt),
    paginated: true,
  }),
  send: endpoint({
    method: 'POST',
    path: '/v1/webhooks/send',
    summary: 'Trigger a journey for a phone, or send its first step now (send_now)',
    ...send,
  }),
  triggerCampaign: endpoint({
    method: 'POST',
    path: '/v1/webhooks/trigger-campaign',
    summary: 'Compatibility alias of POST /v1/webhooks/send',
    ...send,
  }),
  signPayload: endpoint({
    method: 'POST',
    path: '/v1/webhooks/sign-payload',
    summary: "Sign a test payload with an endpoint's secret, so a receiver can be tested without the secret",
    scope: 'webhooks:write',
    body: SignPayloadRequest,
    response: SignPayloadResult,
    // Computes a signature and changes nothing, so read-only plans may use it.
    write: false,
  }),
};
