import { endpoint } from '../endpoint.js';
import { page } from '../schemas/page.js';
import { ApiKey, ApiKeyCreate, ApiKeyCreated, ApiKeyListQuery, ApiKeyRotated } from '../schemas/api-key.js';
import { IdParams, NoContent } from '../schemas/common.js';

export const keys = {
  list: endpoint({
    method: 'GET',
    path: '/v1/keys',
    summary: 'List active keys and their scopes (never their values)',
    scope: 'keys:read',
    query: ApiKeyListQuery,
    response: page(ApiKey),
    paginated: true,
  }),
  create: endpoint({
    method: 'POST',
    path: '/v1/keys',
    summary: 'Create a scoped live or test key; its value is shown only in this response',
    scope: 'keys:write',
    body: ApiKeyCreate,
    response: ApiKeyCreated,
    status: 201,
  }),
  rotate: endpoint({
    method: 'POST',
    path: '/v1/keys/:id/rotate',
    summary: 'Rotate without downtime: a new value; the old one works for 24 hours; webhook secrets do not change',
    scope: 'keys:write',
    params: IdParams,
    response: ApiKeyRotated,
  }),
  revoke: endpoint({
    method: 'DELETE',
    path: '/v1/keys/:id',
    summary: 'Revoke a key immediately',
    scope: 'keys:write',
    params: IdParams,
    response: NoContent,
    status: 204,
  }),
};
