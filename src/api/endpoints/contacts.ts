import { z } from 'zod';
import { Contact } from '../../resources/contact.js';
import { endpoint, page, PageQuery } from '../endpoint.js';
import { IdParams, text } from '../schemas/common.js';

export const ContactUpdate = z.strictObject({
  name: text(200).nullable().optional(),
  email: z.email().max(254).nullable().optional(),
  lead_stage: text(64).optional(),
});

export const contacts = {
  list: endpoint({
    method: 'GET',
    path: '/v1/contacts',
    summary: 'List contacts',
    scope: 'contacts:read',
    query: PageQuery.extend({ lead_stage: text(64).optional(), owner: text(100).optional() }),
    response: page(Contact),
    paginated: true,
  }),
  get: endpoint({
    method: 'GET',
    path: '/v1/contacts/:id',
    summary: 'One contact',
    scope: 'contacts:read',
    params: IdParams,
    response: Contact,
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/v1/contacts/:id',
    summary: 'Update name, email or lead stage',
    scope: 'contacts:write',
    params: IdParams,
    body: ContactUpdate,
    response: Contact,
  }),
};
