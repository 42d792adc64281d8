import type { endpoints } from '../../api/endpoints/index.js';
import type { RouteHandlers } from '../route-handler.js';
import { updateContact } from '../domain/contacts/lead-stage.js';
import { stores } from '../state/stores.js';

export const contactsHandlers = {
  list: ({ query }, ctx) =>
    stores(ctx.db).contacts.listJson({
      limit: query.limit,
      cursor: query.cursor,
      where: { lead_stage: query.lead_stage, owner: query.owner },
    }),
  get: ({ params }, ctx) => stores(ctx.db).contacts.require(params.id, 'contact'),
  update: ({ params, body }, ctx) => updateContact(ctx, params.id, body),
} satisfies RouteHandlers<typeof endpoints.contacts>;
