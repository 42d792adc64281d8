import type { endpoints } from '../../api/endpoints/index.js';
import { createGroup, deleteGroup, listGroups, updateGroup } from '../domain/groups/groups.js';
import { addKnowledge, deleteKnowledge, uploadKnowledge } from '../domain/groups/knowledge.js';
import { deleteProvider, listProviders, putProvider } from '../domain/groups/providers.js';
import type { RouteHandlers } from '../route-handler.js';
import { stores } from '../state/stores.js';

const group = (id: string) => ({ owner: 'group' as const, id });

export const groupsHandlers = {
  list: ({ query }, ctx) => listGroups(ctx, query),
  create: ({ body }, ctx) => createGroup(ctx, body),
  update: ({ params, body }, ctx) => updateGroup(ctx, params.group_id, body),
  delete: ({ params }, ctx) => deleteGroup(ctx, params.group_id),
  listKnowledge: ({ params, query }, ctx) => {
    const s = stores(ctx.db);
    s.groups.require(params.group_id, 'group');
    return s.knowledge.listJson({ limit: query.limit, cursor: query.cursor, where: { group_id: params.group_id } });
  },
  addKnowledge: ({ params, body }, ctx) =>
    addKnowledge(ctx, params.group_id, { ...body, source: 'api', filename: null }),
  uploadKnowledge: ({ params, body }, ctx) => uploadKnowledge(ctx, params.group_id, body),
  deleteKnowledge: ({ params }, ctx) => deleteKnowledge(ctx, params.group_id, params.entry_id),
  listProviders: ({ params, query }, ctx) => listProviders(ctx, group(params.group_id), query),
  putProvider: ({ params, body }, ctx) => putProvider(ctx, group(params.group_id), params.provider, body),
  deleteProvider: ({ params }, ctx) => deleteProvider(ctx, group(params.group_id), params.provider),
} satisfies RouteHandlers<typeof endpoints.groups>;
