import { endpoint } from '../endpoint.js';
import { page, PageQuery } from '../schemas/page.js';
import { NoContent } from '../schemas/common.js';
import {
  ConnectedAccount,
  ConnectedAccountListQuery,
  ConnectedAccountParams,
  ConnectedAccountUpdate,
  ConnectSession,
  ConnectSessionCreate,
} from '../schemas/connected-account.js';
import { ChannelProviderParams, ProviderConfig, ProviderPut } from '../schemas/provider-config.js';

export const channels = {
  list: endpoint({
    method: 'GET',
    path: '/v1/channels',
    summary: 'List connected accounts with their group and AI status',
    scope: 'channels:read',
    query: ConnectedAccountListQuery,
    response: page(ConnectedAccount),
    paginated: true,
  }),
  createConnectSession: endpoint({
    method: 'POST',
    path: '/v1/channels/connect-sessions',
    summary: 'Create a secure browser handoff so a workspace owner authorizes another provider account',
    scope: 'channels:write',
    body: ConnectSessionCreate,
    response: ConnectSession,
    status: 201,
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/v1/channels/:integration_id',
    summary:
      'Switch AI replies or comment AI replies for this account only; assign (group_id) or unassign (null) its group',
    scope: 'automations:write',
    params: ConnectedAccountParams,
    body: ConnectedAccountUpdate,
    response: ConnectedAccount,
  }),
  listProviders: endpoint({
    method: 'GET',
    path: '/v1/channels/:integration_id/providers',
    summary: 'List channel provider overrides; secrets masked',
    scope: 'channels:read',
    params: ConnectedAccountParams,
    query: PageQuery,
    response: page(ProviderConfig),
    paginated: true,
  }),
  putProvider: endpoint({
    method: 'PUT',
    path: '/v1/channels/:integration_id/providers/:provider',
    summary: 'Configure a channel-level voice or custom reply provider',
    scope: 'channels:write',
    params: ChannelProviderParams,
    body: ProviderPut,
    response: ProviderConfig,
  }),
  deleteProvider: endpoint({
    method: 'DELETE',
    path: '/v1/channels/:integration_id/providers/:provider',
    summary: 'Remove a channel provider override',
    scope: 'channels:write',
    params: ChannelProviderParams,
    response: NoContent,
    status: 204,
  }),
};
