import { z } from 'zod';
import { endpoint, page, PageQuery } from '../endpoint.js';
import { ChannelGroup, ChannelGroupCreate, ChannelGroupUpdate } from '../schemas/channel-group.js';
import { Id, NoContent } from '../schemas/common.js';
import { KnowledgeCreate, KnowledgeEntry, KnowledgeUpload } from '../schemas/knowledge-entry.js';
import { GroupProviderParams, ProviderConfig, ProviderPut } from '../schemas/provider-config.js';

const GroupParams = z.object({ group_id: Id });
const EntryParams = z.object({ group_id: Id, entry_id: Id });

export const groups = {
  list: endpoint({
    method: 'GET',
    path: '/v1/channels/groups',
    summary: 'List channel groups',
    scope: 'channels:read',
    query: PageQuery,
    response: page(ChannelGroup),
    paginated: true,
  }),
  create: endpoint({
    method: 'POST',
    path: '/v1/channels/groups',
    summary: 'Create a group with its own AI configuration',
    scope: 'channels:write',
    body: ChannelGroupCreate,
    response: ChannelGroup,
    status: 201,
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/v1/channels/groups/:group_id',
    summary: 'Update the name, AI gate or brain settings of a group',
    scope: 'channels:write',
    params: GroupParams,
    body: ChannelGroupUpdate,
    response: ChannelGroup,
  }),
  delete: endpoint({
    method: 'DELETE',
    path: '/v1/channels/groups/:group_id',
    summary: 'Delete a group; its accounts return to the workspace defaults',
    scope: 'channels:write',
    params: GroupParams,
    response: NoContent,
    status: 204,
  }),
  listKnowledge: endpoint({
    method: 'GET',
    path: '/v1/channels/groups/:group_id/knowledge',
    summary: 'List the knowledge entries of a group',
    scope: 'channels:read',
    params: GroupParams,
    query: PageQuery,
    response: page(KnowledgeEntry),
    paginated: true,
  }),
  addKnowledge: endpoint({
    method: 'POST',
    path: '/v1/channels/groups/:group_id/knowledge',
    summary: 'Add a knowledge entry, scanned for prompt injection (422 PROMPT_INJECTION_DETECTED)',
    scope: 'channels:write',
    params: GroupParams,
    body: KnowledgeCreate,
    response: KnowledgeEntry,
    status: 201,
  }),
  uploadKnowledge: endpoint({
    method: 'POST',
    path: '/v1/channels/groups/:group_id/knowledge/files',
    summary: 'Upload a knowledge file (multipart: type, title, file); parsed in memory, source bytes not retained',
    scope: 'channels:write',
    params: GroupParams,
    body: KnowledgeUpload,
    response: KnowledgeEntry,
    status: 201,
    multipart: true,
  }),
  deleteKnowledge: endpoint({
    method: 'DELETE',
    path: '/v1/channels/groups/:group_id/knowledge/:entry_id',
    summary: 'Delete one knowledge entry',
    scope: 'channels:write',
    params: EntryParams,
    response: NoContent,
    status: 204,
  }),
  listProviders: endpoint({
    method: 'GET',
    path: '/v1/channels/groups/:group_id/providers',
    summary: 'List the AI providers of a group; secrets masked',
    scope: 'channels:read',
    params: GroupParams,
    query: PageQuery,
    response: page(ProviderConfig),
    paginated: true,
  }),
  putProvider: endpoint({
    method: 'PUT',
    path: '/v1/channels/groups/:group_id/providers/:provider',
    summary: 'Configure the voice-synthesis or custom reply endpoint provider of a group',
    scope: 'channels:write',
    params: GroupProviderParams,
    body: ProviderPut,
    response: ProviderConfig,
  }),
  deleteProvider: endpoint({
    method: 'DELETE',
    path: '/v1/channels/groups/:group_id/providers/:provider',
    summary: 'Remove a provider of a group',
    scope: 'channels:write',
    params: GroupProviderParams,
    response: NoContent,
    status: 204,
  }),
};
